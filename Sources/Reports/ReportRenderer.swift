import KPI
import SheetStream

/// The formats reports come in as text.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Aligned text for a terminal (`table` for kpi, `text` for the review).
    case table, text
    case csv, json
    /// One self-contained page (`HTMLReport`).
    case html
}

/// The formats only a file can hold (SPEC section 12).
public enum DocumentFormat: String, CaseIterable, Sendable {
    /// A workbook (`XLSXReport`).
    case xlsx
    /// The HTML page printed by a headless Chromium (`ChromiumPrinter`).
    case pdf
}

/// Renders `KPIReport`s: deterministic, so the same database gives the same bytes.
public struct ReportRenderer {
    /// Colour the ▲/▼ changes (only on a terminal, never with `NO_COLOR`; the caller decides).
    public var colour: Bool

    public init(colour: Bool = false) { self.colour = colour }

    public func render(_ report: KPIReport, as format: ReportFormat) -> String {
        switch format {
        case .table, .text: return text(report)
        case .csv: return csv(report)
        case .json: return json(report)
        case .html: return HTMLReport.render(report)
        }
    }

    /// Writes `report` as a document to `path`.
    public func write(_ report: KPIReport, as format: DocumentFormat, to path: String) throws {
        switch format {
        case .xlsx: try XLSXReport.write(report, to: path)
        case .pdf: try ChromiumPrinter().print(html: HTMLReport.render(report), to: path)
        }
    }

    // MARK: - Text

    private func text(_ report: KPIReport) -> String {
        var blocks: [String] = []
        for scope in report.scopes {
            switch report.kind {
            case .kpi(let asOf):
                blocks.append("\(scope.title) — as of \(asOf)\n" + toDateTable(scope))
            case .review(let quarter):
                blocks.append("\(scope.title) — \(quarter) review\n" + monthTable(scope) + "\n" + quarterTable(scope))
            }
        }
        return blocks.joined(separator: "\n")
    }

    /// kpi: per metric, each period's actual and change against target.
    private func toDateTable(_ scope: ScopeValues) -> String {
        var table = TextTable()
        for (index, period) in scope.periods.enumerated() {
            let range = "\(period.label) \(Self.short(period.range.start.iso8601))–\(Self.short(period.range.end.iso8601))"
            table.group(range, from: 1 + index * 2, span: 2)
        }
        table.add(["Metric"] + scope.periods.flatMap { _ in ["actual", "vs target"] })
        for (index, metric) in MetricDefinition.all.enumerated() {
            table.add([metric.label] + scope.periods.flatMap { period in
                [NumberText.formatted(period.metrics[index].actual, metric.format), NumberText.change(period.metrics[index].pctToTarget)]
            })
        }
        return table.render(colour: paint)
    }

    /// Review: each month's actual, change against target and against last year.
    private func monthTable(_ scope: ScopeValues) -> String {
        var table = TextTable()
        let months = scope.periods.dropLast()
        for (index, period) in months.enumerated() { table.group(period.label, from: 1 + index * 3, span: 3) }
        table.add(["Metric"] + months.flatMap { _ in ["actual", "vs target", "vs LY"] })
        for (index, metric) in MetricDefinition.all.enumerated() {
            table.add([metric.label] + months.flatMap { period in
                let value = period.metrics[index]
                return [NumberText.formatted(value.actual, metric.format), NumberText.change(value.pctToTarget), NumberText.change(value.pctVsLY)]
            })
        }
        return table.render(colour: paint)
    }

    /// Review: the quarter's actual, target, change against target, last year and change against it.
    private func quarterTable(_ scope: ScopeValues) -> String {
        guard let quarter = scope.periods.last else { return "" }
        var table = TextTable()
        table.group(quarter.label, from: 1, span: 5)
        table.add(["Metric", "actual", "target", "vs target", "LY", "vs LY"])
        for (index, metric) in MetricDefinition.all.enumerated() {
            let value = quarter.metrics[index]
            table.add([
                metric.label, NumberText.formatted(value.actual, metric.format), NumberText.formatted(value.target, metric.format),
                NumberText.change(value.pctToTarget), NumberText.formatted(value.ly, metric.format), NumberText.change(value.pctVsLY),
            ])
        }
        return table.render(colour: paint)
    }

    private func paint(_ cell: String) -> String {
        guard colour else { return cell }
        if cell.hasPrefix("▲") { return "\u{1B}[32m" + cell + "\u{1B}[0m" }
        if cell.hasPrefix("▼") { return "\u{1B}[31m" + cell + "\u{1B}[0m" }
        return cell
    }

    /// `MM-DD` of an ISO date.
    private static func short(_ isoDate: String) -> String { String(isoDate.dropFirst(5)) }

    // MARK: - CSV

    /// One row per scope × period × metric: `scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly`
    /// (kpi adds the period's `start,end`); plain numbers, percents as fractions, empty for no value.
    private func csv(_ report: KPIReport) -> String {
        let isKPI: Bool
        if case .kpi = report.kind { isKPI = true } else { isKPI = false }
        var lines = [isKPI ? "scope,period,start,end,metric,actual,target,pct_to_target,ly,pct_vs_ly"
                           : "scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly"]
        for scope in report.scopes {
            for period in scope.periods {
                let dates = isKPI ? [period.range.start.iso8601, period.range.end.iso8601] : []
                for metric in period.metrics {
                    let values = [metric.actual, metric.target, metric.pctToTarget, metric.ly, metric.pctVsLY].map { $0.map(NumberText.plain) ?? "" }
                    lines.append(([scope.scope, period.label] + dates + [metric.key] + values).joined(separator: ","))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - JSON

    /// SPEC section 8's shape: `{"asOf":…,"scopes":[{"scope":"08","periods":{"WTD":{"start":…,"end":…,"metrics":{…}}}}]}`
    /// (the review has `"quarter"` instead of `"asOf"`); keys in a fixed order, `null` for no value.
    private func json(_ report: KPIReport) -> String {
        var out: String
        switch report.kind {
        case .kpi(let asOf): out = "{\"asOf\":\"\(asOf)\",\"scopes\":["
        case .review(let quarter): out = "{\"quarter\":\"\(quarter)\",\"scopes\":["
        }
        for (scopeIndex, scope) in report.scopes.enumerated() {
            out += (scopeIndex > 0 ? ",\n" : "\n") + "{\"scope\":\(JSONText.quoted(scope.scope)),\"periods\":{"
            for (periodIndex, period) in scope.periods.enumerated() {
                out += (periodIndex > 0 ? "," : "") + "\n  \(JSONText.quoted(period.label)):{\"start\":\"\(period.range.start.iso8601)\",\"end\":\"\(period.range.end.iso8601)\","
                out += "\"lyStart\":\"\(period.lastYear.start.iso8601)\",\"lyEnd\":\"\(period.lastYear.end.iso8601)\",\"metrics\":{"
                out += period.metrics.map { metric in
                    let fields = [("actual", metric.actual), ("target", metric.target), ("pctToTarget", metric.pctToTarget), ("ly", metric.ly), ("pctVsLy", metric.pctVsLY)]
                    return "\(JSONText.quoted(metric.key)):{" + fields.map { "\"\($0.0)\":\($0.1.map(NumberText.plain) ?? "null")" }.joined(separator: ",") + "}"
                }.joined(separator: ",")
                out += "}}"
            }
            out += "}}"
        }
        return out + "\n]}\n"
    }
}
