import KPI
import OutputText
import Threads

/// Renders `KPIReport`s: deterministic, so the same database gives the same bytes.
public struct ReportRenderer {
    /// Colour the ▲/▼ changes (only on a terminal, never with `NO_COLOR`; the caller decides).
    public var colour: Bool
    /// The neutral band, "data through" date and banner of HTML, XLSX and PDF documents.
    public var options: DocumentOptions

    public init(colour: Bool = false, options: DocumentOptions = DocumentOptions()) {
        self.colour = colour
        self.options = options
    }

    /// `report` as text: a table, CSV, JSON or an HTML page (a document is `write`'s).
    public func render(_ report: KPIReport, as format: ReportFormat.Text) -> String {
        switch format {
        case .aligned: return text(report)
        case .csv: return csv(report)
        case .json: return json(report)
        case .html: return HTMLReport.render(report, options: options)
        }
    }

    /// Writes a ranked report (`employees`, `merch`) as a document (xlsx, pdf) to `path`.
    public static func write(
        _ document: RankingDocument, as format: ReportFormat.Document, to path: String,
        options: DocumentOptions = DocumentOptions()
    ) throws {
        switch format {
        case .xlsx: try RankingWorkbook.write(document, to: path, options: options)
        case .pdf:
            try ChromiumPrinter().print(
                html: RankingPage.render(document, options: options), to: path, created: document.date)
        }
    }

    /// Writes `report` as a document (xlsx, pdf) to `path`.
    public func write(_ report: KPIReport, as format: ReportFormat.Document, to path: String) throws {
        switch format {
        case .xlsx: try XLSXReport.write(report, to: path, options: options)
        case .pdf:
            try ChromiumPrinter().print(
                html: HTMLReport.render(report, options: options), to: path, created: XLSXReport.date(of: report))
        }
    }

    // MARK: - Text

    private func text(_ report: KPIReport) -> String {
        // Each scope's block stands alone: a thousand stores' tables are written on two cores.
        report.scopes.mapInTwoHalves { scope in
            switch report.kind {
            case .kpi(let asOf):
                return "\(ControlCharacters.escaped(scope.title)) — \(report.asOfHeading(asOf))\n"
                    + toDateTable(scope, report.metrics)
            case .review(let quarter):
                return "\(ControlCharacters.escaped(scope.title)) — \(quarter) review\n"
                    + monthTable(scope, report.metrics) + "\n"
                    + quarterTable(scope, report.metrics) + goalLine(scope)
            }
        }.joined(separator: "\n")
    }

    /// kpi: per metric, each period's actual and change against target, and for MTD and QTD the
    /// pace (projected % to the full period's target, SPEC section 11). A comp scope (SPEC
    /// section 21) has no targets: each period shows its comparable stores, actual and vs LY.
    private func toDateTable(_ scope: ScopeValues, _ metrics: [MetricDefinition]) -> String {
        var table = TextTable()
        let paced = scope.periods.map { Self.pacedPeriods.contains($0.label) && $0.comparableStores == nil }
        var column = 1
        for (period, hasPace) in zip(scope.periods, paced) {
            let range =
                "\(period.label) \(Self.short(period.range.start.iso8601))–\(Self.short(period.range.end.iso8601))"
                + (period.comparableStores.map { " · \($0) store\($0 == 1 ? "" : "s")" } ?? "")
            let span = hasPace ? 3 : 2
            table.group(range, from: column, span: span)
            column += span
        }
        table.add(
            ["Metric"]
                + zip(scope.periods, paced).flatMap { period, hasPace in
                    ["actual", period.comparableStores == nil ? "vs target" : "vs LY"] + (hasPace ? ["pace"] : [])
                })
        for (index, metric) in metrics.enumerated() {
            table.add(
                [metric.label]
                    + zip(scope.periods, paced).flatMap { period, hasPace in
                        let value = period.metrics[index]
                        let change = period.comparableStores == nil ? value.pctToTarget : value.pctVsLY
                        let cells = [NumberText.actual(value, metric.format), NumberText.change(change)]
                        return hasPace ? cells + [NumberText.change(value.projection?.pctToTarget)] : cells
                    })
        }
        return table.render(colour: ChangeColour.painter(colour))
    }

    /// The kpi periods whose text table shows a pace column.
    private static let pacedPeriods: Set<String> = ["MTD", "QTD"]

    /// Review: each month's actual, change against target and against last year.
    private func monthTable(_ scope: ScopeValues, _ metrics: [MetricDefinition]) -> String {
        var table = TextTable()
        let months = scope.periods.dropLast()
        for (index, period) in months.enumerated() {
            table.group(GoalText.periodLabel(period), from: 1 + index * 3, span: 3)
        }
        table.add(["Metric"] + months.flatMap { _ in ["actual", "vs target", "vs LY"] })
        for (index, metric) in metrics.enumerated() {
            table.add(
                [metric.label]
                    + months.flatMap { period in
                        let value = period.metrics[index]
                        return [
                            NumberText.actual(value, metric.format), NumberText.change(value.pctToTarget),
                            NumberText.change(value.pctVsLY),
                        ]
                    })
        }
        return table.render(colour: ChangeColour.painter(colour))
    }

    /// Review: the quarter's actual, target, change against target, last year and change against it.
    private func quarterTable(_ scope: ScopeValues, _ metrics: [MetricDefinition]) -> String {
        guard let quarter = scope.periods.last else { return "" }
        var table = TextTable()
        table.group(GoalText.periodLabel(quarter), from: 1, span: 5)
        table.add(["Metric", "actual", "target", "vs target", "LY", "vs LY"])
        for (index, metric) in metrics.enumerated() {
            let value = quarter.metrics[index]
            table.add([
                metric.label, NumberText.actual(value, metric.format),
                NumberText.target(value.target, metric.format),
                NumberText.change(value.pctToTarget), NumberText.formatted(value.ly, metric.format),
                NumberText.change(value.pctVsLY),
            ])
        }
        return table.render(colour: ChangeColour.painter(colour))
    }

    /// Review: for a running quarter, what it takes to reach the quarter's sales target (SPEC
    /// section 22); empty for a whole quarter or a scope without a sales target.
    private func goalLine(_ scope: ScopeValues) -> String {
        guard let quarter = scope.periods.last, quarter.isRunning, let sales = quarter.metrics.first,
            let definition = MetricDefinition.all.first, let text = GoalText.whatItTakes(sales, definition.format)
        else { return "" }
        return "\(definition.label) \(GoalText.periodLabel(quarter)): \(text)\n"
    }

    /// `MM-DD` of an ISO date.
    private static func short(_ isoDate: String) -> String { String(isoDate.dropFirst(5)) }

    // MARK: - CSV

    /// One row per scope × period × metric: `scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly`
    /// (kpi adds the period's `start,end`); plain numbers, percents as fractions, empty for no value.
    private func csv(_ report: KPIReport) -> String {
        let isKPI: Bool
        if case .kpi = report.kind { isKPI = true } else { isKPI = false }
        let header =
            isKPI
            ? "scope,period,start,end,metric,actual,target,pct_to_target,ly,pct_vs_ly,projected,projected_pct_to_target"
            : "scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly,end,full_target,projected,needed,needed_per_day"
        // Each scope's lines stand alone: a thousand stores' are written on two cores.
        let blocks = report.scopes.mapInTwoHalves { scope in
            scope.periods.flatMap { period in
                let dates = isKPI ? [period.range.start.iso8601, period.range.end.iso8601] : []
                return zip(period.metrics, report.metrics).map { metric, definition in
                    var values = Self.plainFields(metric, definition).map { $0.value ?? "" }
                    if isKPI {
                        values += Self.projectionFields(metric, definition).map { $0.value ?? "" }
                    } else {
                        values +=
                            [period.range.end.iso8601]
                            + Self.fullFields(metric.full, definition).filter { Self.csvFullFields.contains($0.name) }
                            .map { $0.value ?? "" }
                    }
                    return ([scope.scope, period.label] + dates + [metric.key] + values).joined(separator: ",")
                }
            }.joined(separator: "\n")
        }
        return ([header] + blocks.filter { !$0.isEmpty }).joined(separator: "\n") + "\n"
    }

    /// A metric's numbers as CSV and JSON write them, by their JSON names, in CSV column order:
    /// amounts as `NumberText.amount` writes them (money to the cent, counts to six decimals),
    /// changes in shortest round-trip form; `nil` for no value.
    static func plainFields(_ metric: MetricValue, _ definition: MetricDefinition) -> [(name: String, value: String?)] {
        let actual = { (value: Double?) in value.map { NumberText.amount($0, definition.format) } }
        let ratio = { (value: Double?) in value.map { NumberText.plain($0) } }
        return [
            ("actual", actual(metric.actual)), ("target", actual(metric.target)),
            ("pctToTarget", ratio(metric.pctToTarget)),
            ("ly", actual(metric.ly)), ("pctVsLy", ratio(metric.pctVsLY)),
        ]
    }

    /// A metric's projection as CSV and JSON write it (SPEC section 11): the projected value
    /// as an amount (`NumberText.amount`), and its % to the full-period target; `nil` for no value.
    static func projectionFields(_ metric: MetricValue, _ definition: MetricDefinition) -> [(
        name: String, value: String?
    )] {
        [
            ("projected", metric.projection.map { NumberText.amount($0.value, definition.format) }),
            ("projectedPctToTarget", metric.projection?.pctToTarget.map { NumberText.plain($0) }),
        ]
    }

    /// The `full` fields the review CSV repeats, in its column order (`full_target,projected,needed,needed_per_day`).
    private static let csvFullFields: Set<String> = ["target", "projected", "needed", "neededPerDay"]

    /// A running period's `full` object as JSON writes it (SPEC section 22), by its JSON names
    /// in order; every value `nil` when there is none.
    static func fullFields(_ full: FullPeriodGoal?, _ definition: MetricDefinition) -> [(name: String, value: String?)]
    {
        let money = { (value: Double?) in value.map { NumberText.amount($0, definition.format) } }
        return [
            ("end", full.map { "\"\($0.end.iso8601)\"" }), ("target", money(full?.target)),
            ("projected", money(full?.projection?.value)),
            ("projectedPctToTarget", full?.projection?.pctToTarget.map { NumberText.plain($0) }),
            ("needed", money(full?.needed)), ("neededPerDay", money(full?.neededPerDay)),
            ("remainingDays", full.map { String($0.remainingDays) }),
        ]
    }

    // MARK: - JSON

    /// SPEC section 8's shape: `{"asOf":…,"scopes":[{"scope":"08","periods":{"WTD":{"start":…,"end":…,"metrics":{…}}}}]}`
    /// (the review has `"quarter"` instead of `"asOf"`); keys in a fixed order, `null` for no value.
    private func json(_ report: KPIReport) -> String {
        var out: String
        let isReview: Bool
        switch report.kind {
        case .kpi(let asOf):
            out = "{\"asOf\":\"\(asOf)\",\"scopes\":["
            isReview = false
        case .review(let quarter):
            let asOf = report.asOf.map { "\"\($0.iso8601)\"" } ?? "null"
            out = "{\"quarter\":\"\(quarter)\",\"asOf\":\(asOf),\"scopes\":["
            isReview = true
        }
        // Each scope's object stands alone: a thousand stores' are written on two cores.
        let objects = report.scopes.mapInTwoHalves { Self.json($0, report.metrics, isReview: isReview) }
        for (scopeIndex, object) in objects.enumerated() { out += (scopeIndex > 0 ? ",\n" : "\n") + object }
        return out + "\n]}\n"
    }

    /// One scope's JSON object (`{"scope":…,"periods":{…}}`); a review's periods say whether they run.
    private static func json(_ scope: ScopeValues, _ metrics: [MetricDefinition], isReview: Bool) -> String {
        var out = "{\"scope\":\(JSONText.quoted(scope.scope)),\"periods\":{"
        for (periodIndex, period) in scope.periods.enumerated() {
            out +=
                (periodIndex > 0 ? "," : "")
                + "\n  \(JSONText.quoted(period.label)):{\"start\":\"\(period.range.start.iso8601)\",\"end\":\"\(period.range.end.iso8601)\","
            let lastYear = [period.lastYear?.start, period.lastYear?.end].map {
                $0.map { "\"\($0.iso8601)\"" } ?? "null"
            }
            out += "\"lyStart\":\(lastYear[0]),\"lyEnd\":\(lastYear[1]),"
            if isReview { out += "\"running\":\(period.isRunning)," }
            if let stores = period.comparableStores { out += "\"stores\":\(stores)," }
            out += "\"metrics\":{"
            out += zip(period.metrics, metrics).map { metric, definition in
                var fields = Self.plainFields(metric, definition)
                if metric.projection != nil { fields += Self.projectionFields(metric, definition) }
                if let through = metric.dataThrough { fields.append(("dataThrough", "\"\(through.iso8601)\"")) }
                let full =
                    metric.full == nil
                    ? ""
                    : ",\"full\":{"
                        + Self.fullFields(metric.full, definition).map { "\"\($0.name)\":\($0.value ?? "null")" }
                        .joined(separator: ",") + "}"
                return "\(JSONText.quoted(metric.key)):{"
                    + fields.map { "\"\($0.name)\":\($0.value ?? "null")" }.joined(separator: ",") + full + "}"
            }.joined(separator: ",")
            out += "}}"
        }
        return out + "}}"
    }
}
