import ArgumentParser
import CivilCalendar
import KPI
import OutputText
import Reports

/// `ddkpi explain`: why one KPI value is what it is (SPEC section 17): the formula and its exact
/// components, every contributing row with its file, sheet, row and run, and the target's parts.
struct ExplainCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Why a KPI value is what it is: formula, exact components, every contributing row, the target's parts.")

    static let periodShape = ReportPeriodShape(
        form: .quarterOrPeriod, quarter: "The review's fiscal quarter, such as 2025Q2.",
        asOf: "With --period: the last day included (YYYY-MM-DD).", period: "With --as-of: WTD, MTD, QTD or YTD.",
        month: "With --quarter: one month of it (YYYY-MM) instead of the whole quarter.")

    @OptionGroup var global: GlobalOptions

    @Option(
        help:
            "The metric: its key in kpi's JSON (totalSales, avgAds, …) or its label in the tables (Sales, \"Avg sale\", …)."
    )
    var metric: String

    @OptionGroup var scope: ScopeOptions

    @Flag(help: "The whole company.")
    var all = false

    @OptionGroup var period: ReportPeriodOptions<ExplainCommand>

    @Flag(help: "Explain the LY value instead of the actual.")
    var ly = false

    @Option(help: "Output format: text or json.")
    var format = FormatOption<TextOrJSON>.standard

    @Option(help: "Rows shown at most (text: 50 by default; json: all).")
    var limit: Int?

    func validate() throws {
        guard scope.store.count + (scope.region == nil ? 0 : 1) + (all ? 1 : 0) == 1 else {
            throw ValidationError(
                "give exactly one of --store CODE, --region NAME or --all: explain explains one scope")
        }
        if let limit, limit < 0 { throw ValidationError("--limit \(limit): expected a whole number of at least 0") }
    }

    func run() throws {
        let engine = try ReportContext(global: global).engine
        let requested: ExplainRequest.Period
        switch try period.resolve(in: engine.calendar) {
        case .toDate(let day, let label): requested = .toDate(asOf: day, label: label)
        case .quarter(let fiscal, _, let month): requested = .review(quarter: fiscal, month: month)
        case .latest, .day:
            throw ValidationError("explain takes --as-of with --period, or --quarter")
        }
        let explanation = try engine.explain(
            ExplainRequest(metric: metric, filter: scope.filter, period: requested, lastYear: ly))
        let renderer = ExplainRenderer(format: format.value, limit: limit)
        let output = TextOutput()
        output.write(renderer.head(explanation))
        var count = 0
        try engine.warehouse.contributingRows(
            explanation.read, from: explanation.range.start, through: explanation.range.end,
            stores: Set(explanation.stores)
        ) { row in
            if let text = renderer.row(row, number: count) { output.write(text) }
            count += 1
        }
        output.write(renderer.tail(explanation, rows: count))
        output.flush()
    }
}
