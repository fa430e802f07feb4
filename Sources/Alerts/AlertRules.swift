import Foundation
import KPI
import Reports
import TOMLKit

/// The `[[alert]]` rules of a config or rules file (SPEC section 24), parsed; every error names
/// the file, the rule and the key.
public enum AlertRules {
    /// The keys an `[[alert]]` table may have.
    static let keys = ["name", "kind", "scope", "stores", "region", "metric", "period", "when", "notify"]
    /// The periods a metric rule may watch.
    static let periods = ["WTD", "MTD", "QTD", "YTD"]

    /// Reads a rules file: `[[alert]]` tables and nothing else.
    public static func load(path: String) throws -> [AlertRule] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw AlertRuleError("--rules \(path): cannot read the rules file")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw AlertRuleError("\(path) line \(error.source.begin.line): \(error.description)")
        }
        for key in table.keys where key != "alert" {
            throw AlertRuleError("\(path): unknown setting \"\(key)\"; expected [[alert]] tables")
        }
        return try parse(table["alert"], file: path)
    }

    /// Parses the value of the `alert` key (an array of tables) of `file`.
    public static func parse(_ value: (any TOMLValueConvertible)?, file: String) throws -> [AlertRule] {
        guard let array = value?.array else { throw AlertRuleError("\(file): alert: expected [[alert]] tables") }
        var names: Set<String> = []
        return try array.enumerated().map { index, element in
            let place = "\(file): [[alert]] number \(index + 1)"
            guard let table = element.table else { throw AlertRuleError("\(place): expected a table") }
            guard let name = table["name"]?.string, !name.isEmpty else {
                throw AlertRuleError("\(place): name: expected the rule's name, such as \"behind pace\"")
            }
            let rule = try Self.rule(named: name, table, at: "\(file): rule \"\(name)\"")
            guard names.insert(name).inserted else {
                throw AlertRuleError(
                    "\(file): rule \"\(name)\": name: an earlier rule has this name; names must differ")
            }
            return rule
        }
    }

    private static func rule(named name: String, _ table: TOMLTable, at place: String) throws -> AlertRule {
        let fail = { (key: String, found: String, expected: String) in
            AlertRuleError("\(place): \(key)\(found.isEmpty ? "" : " = \(found)"): expected \(expected)")
        }
        for key in table.keys where !keys.contains(key) {
            throw fail(key, "", "one of the keys \(keys.joined(separator: ", "))")
        }
        let notify: [String] =
            try (table["notify"]?.array).map { items in
                try items.map { item in
                    guard let target = item.string, target.hasPrefix("email:") || target.hasPrefix("webhook:"),
                        target.split(separator: ":", maxSplits: 1).count == 2
                    else {
                        throw fail(
                            "notify", item.debugDescription,
                            "targets such as \"email:dir08@example.com\" or \"webhook:ops\"")
                    }
                    return target
                }
            } ?? []
        if table.contains(key: "notify"), table["notify"]?.array == nil {
            throw fail("notify", "", "a list of targets such as [\"email:dir08@example.com\", \"webhook:ops\"]")
        }
        guard let when = table["when"]?.string else {
            throw fail("when", "", "a condition as a string, such as \"projectedPctToTarget < -0.05\"")
        }
        let kindName = table["kind"].map { $0.string ?? "" } ?? "metric"
        switch kindName {
        case "alarms", "freshness":
            for key in ["scope", "stores", "region", "metric", "period"] where table.contains(key: key) {
                throw fail(key, "", "no \(key) in a kind = \"\(kindName)\" rule")
            }
            if kindName == "freshness" {
                guard when == "late" || when == "missing" else {
                    throw fail("when", "\"\(when)\"", "\"late\" (late or missing) or \"missing\"")
                }
                return AlertRule(name: name, kind: .freshness(missingOnly: when == "missing"), notify: notify)
            }
            guard let condition = AlertCondition(when), condition.key == "count" else {
                throw fail("when", "\"\(when)\"", "count, a comparison and a number, such as \"count > 0\"")
            }
            return AlertRule(name: name, kind: .alarms(condition), notify: notify)
        case "metric":
            break
        default:
            throw fail("kind", "\"\(kindName)\"", "\"metric\" (the default), \"alarms\" or \"freshness\"")
        }
        let watch = try metricWatch(table, when: when, fail: fail)
        return AlertRule(name: name, kind: .metric(watch), notify: notify)
    }

    private static func metricWatch(
        _ table: TOMLTable, when: String, fail: (String, String, String) -> AlertRuleError
    ) throws -> AlertRule.MetricWatch {
        let scopeKeys = ["scope", "stores", "region"].filter { table.contains(key: $0) }
        guard scopeKeys.count == 1 else {
            throw fail(
                "scope", "",
                "exactly one of scope = \"stores\" | \"regions\" | \"all\" | \"comp:ALL\", stores = [...] or region = \"...\""
            )
        }
        let scope: AlertScope
        switch scopeKeys[0] {
        case "scope":
            let text = table["scope"]?.string ?? ""
            switch text {
            case "stores": scope = .stores
            case "regions": scope = .regions
            case "all": scope = .all
            case "comp:ALL": scope = .comparableAll
            default: throw fail("scope", "\"\(text)\"", "\"stores\", \"regions\", \"all\" or \"comp:ALL\"")
            }
        case "stores":
            let items = table["stores"]?.array.map { Array($0) } ?? []
            let codes = items.compactMap { $0.string }
            guard !codes.isEmpty, codes.count == items.count else {
                throw fail("stores", "", "a list of store codes such as [\"08\"]")
            }
            scope = .storeList(codes)
        default:
            guard let region = table["region"]?.string, !region.isEmpty else {
                throw fail("region", "", "a region name such as \"East\"")
            }
            scope = .region(region)
        }
        let metricName = table["metric"]?.string ?? ""
        guard let definition = MetricDefinition.all.first(where: { $0.key == metricName }) else {
            throw fail(
                "metric", "\"\(metricName)\"",
                "a kpi metric: \(MetricDefinition.all.map(\.key).joined(separator: ", "))")
        }
        let period = table["period"]?.string ?? ""
        guard periods.contains(period) else {
            throw fail("period", "\"\(period)\"", periods.joined(separator: ", "))
        }
        let keys = numberKeys(definition, period: period)
        guard let condition = AlertCondition(when) else {
            throw fail("when", "\"\(when)\"", "a kpi JSON key, a comparison (<, <=, >, >=, ==, !=) and a number")
        }
        guard keys.contains(condition.key) else {
            throw fail(
                "when", "\"\(when)\"",
                "a key \(metricName) has in \(period): \(keys.joined(separator: ", "))")
        }
        return AlertRule.MetricWatch(scope: scope, metric: metricName, period: period, condition: condition)
    }

    /// The number keys the kpi JSON gives `definition` in `period`: projections and `full` only
    /// for additive metrics, `full` only in MTD, QTD and YTD (SPEC sections 11 and 22).
    static func numberKeys(_ definition: MetricDefinition, period: String) -> [String] {
        var keys = KPIJSONValue.plainKeys
        guard definition.isAdditive else { return keys }
        keys += KPIJSONValue.projectionKeys
        if period != "WTD" { keys += KPIJSONValue.fullKeys.map { "full.\($0)" } }
        return keys
    }
}

/// A rule that cannot be used: exit code 2, naming the rule and the key.
public struct AlertRuleError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
