import ArgumentParser
import CivilCalendar
import KPI
import Reports
import Warehouse

extension MerchDimension: ExpressibleByArgument {}

/// `ddkpi merch`: vendors or categories ranked by sales per store, region and company.
struct MerchCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "merch",
        abstract:
            "Vendor or category performance: the top N by sales per scope with share, LY, % vs LY and LY rank, then (other)."
    )

    static let periodShape = ReportPeriodShape(
        form: .quarterOrToDate, quarter: "A fiscal quarter, such as 2025Q2 (or give --as-of).",
        asOf:
            "The last day included (YYYY-MM-DD): with --period, or inside --quarter (default: the latest sales-audit day).",
        period: "With --as-of: MTD, QTD or YTD (default MTD).", periods: ["MTD", "QTD", "YTD"])

    @OptionGroup var global: GlobalOptions
    @OptionGroup var period: ReportPeriodOptions<MerchCommand>

    @Option(help: "Rank vendors or categories.")
    var by: MerchDimension

    @OptionGroup var scope: ScopeOptions
    @OptionGroup var ranking: RankingOptions
    @OptionGroup var output: OutputOptions<TableReport>

    func run() throws {
        let context = try ReportContext(global: global)
        let engine = context.engine
        let (filter, top) = (scope.filter, ranking.top)
        let report: MerchReport
        switch try period.resolve(in: engine.calendar) {
        case .quarter(let fiscal, let day, _):
            report = try engine.merch(quarter: fiscal, asOf: day, by: by, filter: filter, top: top)
        case .toDate(let day, let label):
            report = try engine.merch(asOf: day, period: label, by: by, filter: filter, top: top)
        case .latest, .day:
            throw ValidationError("merch takes --quarter or --as-of")
        }
        let options = try context.documentOptions(filter, through: report.range.end, for: output)
        try output.emitRanking(
            document: { RankingDocument(report) }, options: options,
            text: { format, colour in MerchRenderer(colour: colour, options: options).render(report, as: format) })
    }
}
