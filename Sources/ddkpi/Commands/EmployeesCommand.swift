import ArgumentParser
import CivilCalendar
import KPI
import Reports

/// `ddkpi employees --as-of YYYY-MM-DD`: associates ranked by sales per store, then chain-wide.
struct EmployeesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees",
        abstract: "Associates ranked by sales per store, then the chain-wide top N, with LY and projected sales.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, json, xlsx, html, pdf }
    enum Period: String, ExpressibleByArgument, CaseIterable {
        case wtd = "WTD", mtd = "MTD", qtd = "QTD", ytd = "YTD"
    }

    @OptionGroup var global: GlobalOptions

    @Option(help: "The last day included (YYYY-MM-DD).")
    var asOf: String

    @Option(help: "The to-date period: WTD, MTD, QTD or YTD.")
    var period: Period = .mtd

    @OptionGroup var ranking: RankingOptions

    @Option(help: "Output format: table, csv, json, xlsx, html or pdf (xlsx and pdf need --output).")
    var format: Format = .table

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    func validate() throws {
        guard CivilDate(iso8601: asOf) != nil else { throw ValidationError("--as-of \(asOf): expected a date as YYYY-MM-DD") }
        try validateOutput(format: format.rawValue, output: output)
    }

    func run() throws {
        guard let day = CivilDate(iso8601: asOf) else { throw ValidationError("--as-of \(asOf): expected YYYY-MM-DD") }
        let report = try ReportContext(global: global).engine.employees(
            asOf: day, period: period.rawValue, filter: ranking.filter, top: ranking.top)
        try emitRanking(format: format.rawValue, to: output, document: { RankingDocument(report) }) { format, colour in
            EmployeeRenderer(colour: colour).render(report, as: format)
        }
    }
}
