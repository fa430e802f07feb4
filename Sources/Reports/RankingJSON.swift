import CivilCalendar
import KPI
import OutputText

/// The JSON both ranked reports write (`employees`, SPEC section 9; `merch`, section 10): the
/// report's own members, its date ranges, then its scopes, one line per scope and per row, keys
/// in a fixed order.
enum RankingJSON {
    /// An object member: its name and its value as JSON text.
    typealias Member = (name: String, value: String)

    /// `{members…,"start":…,"end":…,"lyStart":…,"lyEnd":…,"scopes":[…]}` with each scope
    /// (`{"scope":"08","<rowsName>":[{row},…]}`) on a line of its own, and each row too.
    static func document(
        _ members: [Member], range: DateRange, lastYear: DateRange?, rowsNamed rowsName: String,
        scopes: [(scope: String, rows: [[Member]])]
    ) -> String {
        let dates = [
            ("start", range.start), ("end", range.end), ("lyStart", lastYear?.start), ("lyEnd", lastYear?.end),
        ].map { Member($0.0, $0.1.map { string($0.iso8601) } ?? "null") }
        let scopeLines = scopes.map { scope in
            "\n"
                + object([
                    ("scope", string(scope.scope)),
                    (rowsName, "[" + scope.rows.map { "\n  " + object($0) }.joined(separator: ",") + "]"),
                ])
        }
        return object(members + dates + [("scopes", "[" + scopeLines.joined(separator: ",") + "\n]")]) + "\n"
    }

    /// `{"name":value,…}` in the members' order.
    static func object(_ members: [Member]) -> String {
        "{" + members.map { string($0.name) + ":" + $0.value }.joined(separator: ",") + "}"
    }

    /// A JSON string.
    static func string(_ text: String) -> String { JSONText.quoted(text) }
}
