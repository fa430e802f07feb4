import Feeds
import KPI
import OutputText
import Warehouse

/// Renders `ddkpi explain` (SPEC section 17) as text for people or JSON, in three pieces so
/// that the rows stream: `head`, then `row` for each contributing row, then `tail`.
public struct ExplainRenderer {
    /// The formats it writes.
    public static let formats: [ReportFormat] = [.text, .json]

    let format: ReportFormat
    /// Rows shown at most (`nil`: all).
    let limit: Int?

    /// JSON when `format` is json, else text; text shows the first 50 rows unless told
    /// otherwise, JSON all of them unless told.
    public init(format: ReportFormat, limit: Int?) {
        self.format = format == .json ? .json : .text
        self.limit = limit ?? (self.format == .text ? 50 : nil)
    }

    /// Everything before the rows.
    public func head(_ explanation: Explanation) -> String {
        let metric = explanation.metric
        switch format {
        case .json:
            let components = explanation.components.map {
                "\(JSONText.quoted($0.measure.rawValue)):"
                    + (explanation.unknown.contains($0.measure) ? "null" : Self.exact($0.value))
            }
            return "{\"metric\":\(JSONText.quoted(metric.key)),\"scope\":\(JSONText.quoted(explanation.scope)),"
                + "\"period\":\(JSONText.quoted(explanation.period)),\"ly\":\(explanation.lastYear),"
                + "\"start\":\"\(explanation.range.start.iso8601)\",\"end\":\"\(explanation.range.end.iso8601)\","
                + "\"value\":\(explanation.value.map { NumberText.plain($0, metric.format) } ?? "null"),"
                + "\"pctToTarget\":\(explanation.pctToTarget.map { NumberText.plain($0) } ?? "null"),"
                + "\"projected\":\(explanation.projection.map { NumberText.plain($0.value, metric.format) } ?? "null"),"
                + "\"projectedPctToTarget\":\(explanation.projection?.pctToTarget.map { NumberText.plain($0) } ?? "null"),"
                + "\"formula\":\(JSONText.quoted(explanation.formula)),\"components\":{\(components.joined(separator: ","))},"
                + "\"rollupMonths\":[\(explanation.servedByRollups.map(JSONText.quoted).joined(separator: ","))],"
                + "\"rows\":["
        default:  // text: init admits text and json alone
            var lines = [
                "\(metric.label) (\(metric.key))\(explanation.lastYear ? ", last year" : ""), \(explanation.title), "
                    + "\(explanation.period) \(explanation.range.start.iso8601) to \(explanation.range.end.iso8601): "
                    + NumberText.formatted(explanation.value, metric.format)
            ]
            if let against = Self.againstTarget(explanation) { lines.append(against) }
            lines.append("Formula: \(explanation.formula)")
            for (component, read) in zip(explanation.components, explanation.read) {
                let needed = read.countsNeeded.map(\.rawValue).joined(separator: " and ")
                lines.append(
                    explanation.unknown.contains(component.measure)
                        ? "  \(component.measure.rawValue) unknown (no row reports \(needed))"
                        : "  \(component.measure.rawValue) = \(Self.shown(component.value, component.measure))")
            }
            if !explanation.servedByRollups.isEmpty {
                lines.append(
                    "The store-month rollups served \(explanation.servedByRollups.joined(separator: ", ")); the rows below are the feed tables' rows they sum."
                )
            }
            lines.append("Rows:")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The row numbered `number` (from 0), or `nil` past the limit.
    public func row(_ row: ContributingRow, number: Int) -> String? {
        if let limit, number >= limit { return nil }
        switch format {
        case .json:
            let values = row.values.map { "\(JSONText.quoted($0.measure.rawValue)):\(Self.exact($0.value))" }
            let file: String = row.file.map(JSONText.quoted) ?? "null"
            let sheet: String = row.sheet.map(JSONText.quoted) ?? "null"
            let line: String = row.row.map { String($0) } ?? "null"
            let run: String = row.run.map { String($0) } ?? "null"
            let fields: [(String, String)] = [
                ("table", JSONText.quoted(row.table)), ("store", JSONText.quoted(row.store)),
                ("date", JSONText.quoted(row.date)), ("file", file), ("sheet", sheet), ("row", line), ("run", run),
                ("values", "{" + values.joined(separator: ",") + "}"),
            ]
            // A count the row does not report is listed, never printed as 0 (SPEC section 26).
            let unknown =
                row.unknown.isEmpty
                ? []
                : [("unknown", "[" + row.unknown.map { JSONText.quoted($0.rawValue) }.joined(separator: ",") + "]")]
            let closed = row.closed ? [("closed", "true")] : []
            let object = (fields + unknown + closed).map { "\"" + $0.0 + "\":" + $0.1 }.joined(separator: ",")
            return (number > 0 ? ",\n{" : "\n{") + object + "}"
        default:  // text: init admits text and json alone
            let values =
                row.values.map { "\($0.measure.rawValue) \(Self.shown($0.value, $0.measure))" }
                + row.unknown.map { "\($0.rawValue) unknown" }
                + (row.closed ? ["closed (the export's Open column)"] : [])
            let source = [
                row.file.map(FeedFileReader.fileName), row.sheet.map { "sheet \($0)" }, row.row.map { "row \($0)" },
                row.run.map { "run \($0)" },
            ].compactMap { $0 }.joined(separator: ", ")
            return ControlCharacters.escaped(
                "  \(row.table) \(row.store) \(row.date): \(values.joined(separator: ", ")) (\(source))") + "\n"
        }
    }

    /// Everything after the rows, given how many there were.
    public func tail(_ explanation: Explanation, rows: Int) -> String {
        let metric = explanation.metric
        switch format {
        case .json:
            let parts = explanation.parts.map { part in
                "{\"store\":\(JSONText.quoted(part.store)),\"month\":\"\(part.month)\",\"source\":\"\(part.source.rawValue)\","
                    + "\"days\":\(part.days),\"amount\":\(NumberText.plain(part.amount))"
                    + (part.weight.map { ",\"weight\":\(NumberText.plain($0))" } ?? "")
                    + (part.monthlyTarget.map { ",\"target\":\(NumberText.plain($0))" } ?? "") + "}"
            }
            return (rows > 0 ? "\n" : "")
                + "],\"target\":{\"value\":\(explanation.target.map(NumberText.plain) ?? "null"),"
                + "\"parts\":[\(parts.joined(separator: ","))]}}\n"
        default:  // text: init admits text and json alone
            var lines: [String] = []
            if rows == 0 { lines.append("  (none)") }
            if let limit, rows > limit {
                lines.append("  … and \(rows - limit) more rows (\(rows) in all; --limit N or --format json for more)")
            }
            guard !explanation.lastYear else { return lines.map { $0 + "\n" }.joined() }
            let target = explanation.target.map { NumberText.formatted($0, metric.format) } ?? "none"
            lines.append(
                "Target: \(target)"
                    + (metric.isAdditive ? " = the sum of the parts" : " = Σ (monthly target × weight) ÷ Σ weight")
                    + ":")
            for part in explanation.parts {
                let amount =
                    part.weight.map {
                        "\(NumberText.formatted(part.monthlyTarget, metric.format)) × weight \(NumberText.formatted($0, .count))"
                    }
                    ?? NumberText.formatted(
                        part.amount, metric.isAdditive && metric.format == .money ? .moneyWithCents : metric.format)
                lines.append("  \(part.store) \(part.month) \(part.source.rawValue) (\(part.days) days): \(amount)")
            }
            if explanation.parts.isEmpty { lines.append("  (no goals for these stores and months)") }
            return lines.map { $0 + "\n" }.joined()
        }
    }

    /// The target, the % to target and, where kpi's table shows one, the pace and projection,
    /// as that table prints them; `nil` for LY.
    static func againstTarget(_ explanation: Explanation) -> String? {
        guard !explanation.lastYear else { return nil }
        let metric = explanation.metric
        guard let target = explanation.target else { return "Target: none" }
        var line =
            "Target \(NumberText.formatted(target, metric.format)): \(NumberText.change(explanation.pctToTarget)) to target"
        if let projection = explanation.projection {
            line +=
                "; pace \(NumberText.change(projection.pctToTarget)) (projected \(NumberText.formatted(projection.value, metric.format)))"
        }
        return line
    }

    /// An exact integer as a JSON number, or as a decimal string beyond 2^53.
    static func exact(_ value: Int128) -> String {
        value.magnitude <= 1 << 53 ? String(value) : "\"\(value)\""
    }

    /// A component for people: cents as money, the rest as grouped integers.
    static func shown(_ value: Int128, _ measure: MeasureName) -> String {
        let number = Double(value)
        switch measure {
        case .salesCents, .gpSalesCents:
            return "\(NumberText.formatted(number, .count)) (\(NumberText.formatted(number / 100, .moneyWithCents)))"
        default: return NumberText.formatted(number, .count)
        }
    }
}
