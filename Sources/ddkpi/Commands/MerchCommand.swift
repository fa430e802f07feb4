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
        abstract: "Vendor or category performance: the top N by sales per scope with share, LY, % vs LY and LY rank, then (other).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, json, xlsx, html, pdf }
    enum Period: String, ExpressibleByArgument, CaseIterable {
        case mtd = "MTD", qtd = "QTD", ytd = "YTD"
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "A fiscal quarter, such as 2025Q2 (or give --as-of).")
    var quarter: String?

    @Option(help: "The last day included (YYYY-MM-DD), with --period.")
    var asOf: String?

    @Option(help: "With --as-of: MTD, QTD or YTD (default MTD).")
    var period: Period?

    @Option(help: "Rank vendors or categories.")
    var by: MerchDimension

    @OptionGroup var ranking: RankingOptions

    @Option(help: "Output format: table, csv, json, xlsx, html or pdf (xlsx and pdf need --output).")
    var format: Format = .table

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    func validate() throws {
        switch (quarter, asOf) {
        case (nil, nil), (.some, .some): throw ValidationError("give --quarter YYYYQn or --as-of YYYY-MM-DD")
        case (.some(let name), nil):
            guard FiscalCalendar().quarter(named: name) != nil else {
                throw ValidationError("--quarter \(name): expected a quarter such as 2025Q2 (Q1 to Q4)")
            }
            if period != nil { throw ValidationError("--period goes with --as-of, not --quarter") }
        case (nil, .some(let day)):
            guard CivilDate(iso8601: day) != nil else { throw ValidationError("--as-of \(day): expected a date as YYYY-MM-DD") }
        }
        try validateOutput(format: format.rawValue, output: output)
    }

    func run() throws {
        let engine = try ReportContext(global: global).engine
        let (filter, top) = (ranking.filter, ranking.top)
        let report: MerchReport
        if let quarter {
            guard let fiscal = engine.calendar.quarter(named: quarter) else { throw ValidationError("--quarter \(quarter): expected YYYYQn") }
            report = try engine.merch(quarter: fiscal, by: by, filter: filter, top: top)
        } else {
            guard let day = asOf.flatMap(CivilDate.init(iso8601:)) else { throw ValidationError("--as-of: expected YYYY-MM-DD") }
            report = try engine.merch(asOf: day, period: (period ?? .mtd).rawValue, by: by, filter: filter, top: top)
        }
        try emitRanking(format: format.rawValue, to: output, document: { RankingDocument(report) }) { format, colour in
            MerchRenderer(colour: colour).render(report, as: format)
        }
    }
}
