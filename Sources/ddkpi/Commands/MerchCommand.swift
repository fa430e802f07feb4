import ArgumentParser
import CivilCalendar
import KPI
import Reports
import Warehouse

extension MerchDimension: ExpressibleByArgument {}

/// `ddkpi merch`: vendors or categories ranked by sales per store, region and company.
struct MerchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merch",
        abstract:
            "Vendor or category performance: the top N by sales per scope with share, LY, % vs LY and LY rank, then (other)."
    )

    enum Period: String, ExpressibleByArgument, CaseIterable {
        case mtd = "MTD"
        case qtd = "QTD"
        case ytd = "YTD"
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "A fiscal quarter, such as 2025Q2 (or give --as-of).")
    var quarter: String?

    @Option(
        help:
            "The last day included (YYYY-MM-DD): with --period, or inside --quarter (default: the latest sales-audit day)."
    )
    var asOf: String?

    @Option(help: "With --as-of: MTD, QTD or YTD (default MTD).")
    var period: Period?

    @Option(help: "Rank vendors or categories.")
    var by: MerchDimension

    @OptionGroup var scope: ScopeOptions
    @OptionGroup var ranking: RankingOptions
    @OptionGroup var output: OutputOptions<TableReport>

    /// What the report covers: a quarter up to an as-of day, or a to-date period.
    enum Range {
        case quarter(FiscalQuarter, asOf: CivilDate?)
        case toDate(CivilDate, Period)
    }

    func validate() throws { _ = try range(in: FiscalCalendar()) }

    /// The range `--quarter`, or `--as-of` with `--period`, name in `calendar`.
    func range(in calendar: FiscalCalendar) throws -> Range {
        switch (quarter, asOf) {
        case (nil, nil): throw ValidationError("give --quarter YYYYQn or --as-of YYYY-MM-DD")
        case (.some(let name), let day):
            let fiscal = try QuarterOptions.quarter(name, in: calendar)
            if period != nil { throw ValidationError("--period goes with --as-of alone, not --quarter") }
            return .quarter(fiscal, asOf: try day.map(AsOfOptions.day))
        case (nil, .some(let day)):
            return .toDate(try AsOfOptions.day(day), period ?? .mtd)
        }
    }

    func run() throws {
        let context = try ReportContext(global: global)
        let engine = context.engine
        let (filter, top) = (scope.filter, ranking.top)
        let report: MerchReport
        switch try range(in: engine.calendar) {
        case .quarter(let fiscal, let day):
            report = try engine.merch(quarter: fiscal, asOf: day, by: by, filter: filter, top: top)
        case .toDate(let day, let period):
            report = try engine.merch(asOf: day, period: period.rawValue, by: by, filter: filter, top: top)
        }
        let options = try context.documentOptions(filter, through: report.range.end, for: output)
        try output.emitRanking(
            document: { RankingDocument(report) }, options: options,
            text: { format, colour in MerchRenderer(colour: colour, options: options).render(report, as: format) })
    }
}
