import KPI
import OutputText

/// Renders `ddkpi status` (SPEC section 15) as a text table or JSON.
public struct FreshnessRenderer {
    public init() {}

    /// The report, with the count of alarms `check` finds over the last 7 days (SPEC section 18).
    public func render(_ report: FreshnessReport, alarms: Int, json: Bool) -> String {
        json ? self.json(report, alarms: alarms) : table(report, alarms: alarms)
    }

    private func table(_ report: FreshnessReport, alarms: Int) -> String {
        var table = TextTable()
        table.add(["Feed", "Scope", "Last date", "Days since", "Late after", "Verdict"])
        for row in report.rows {
            table.add([
                row.feed.rawValue, row.scope, row.lastDate?.iso8601 ?? "—", row.daysSince.map(String.init) ?? "—",
                String(row.threshold), row.verdict.rawValue,
            ])
        }
        let attention = report.rows.filter { $0.verdict != .ok }.count
        let summary = attention == 0 ? "all feeds ok" : "\(attention) of \(report.rows.count) late or missing"
        let checks =
            alarms == 0
            ? "Wrong-data checks, last 7 days: no alarms\n"
            : "Wrong-data checks, last 7 days: \(alarms) alarm\(alarms == 1 ? "" : "s") (see ddkpi check)\n"
        return "Feed freshness as of \(report.asOf.iso8601): \(summary)\n" + table.render() + checks
    }

    /// `{"asOf":"…","ok":false,"feeds":[{"feed":"sales-audit","scope":"08","lastDate":"…","daysSince":1,
    /// "lateAfterDays":2,"verdict":"ok"},…],"alarms":0}`; `null` for a feed that never had a row.
    private func json(_ report: FreshnessReport, alarms: Int) -> String {
        let rows = report.rows.map { row in
            "{\"feed\":\(JSONText.quoted(row.feed.rawValue)),\"scope\":\(JSONText.quoted(row.scope)),"
                + "\"lastDate\":\(row.lastDate.map { "\"\($0.iso8601)\"" } ?? "null"),"
                + "\"daysSince\":\(row.daysSince.map(String.init) ?? "null"),\"lateAfterDays\":\(row.threshold),"
                + "\"verdict\":\"\(row.verdict.rawValue)\"}"
        }
        return "{\"asOf\":\"\(report.asOf.iso8601)\",\"ok\":\(!report.needsAttention),\"feeds\":[\n"
            + rows.joined(separator: ",\n") + "\n],\"alarms\":\(alarms)}\n"
    }
}
