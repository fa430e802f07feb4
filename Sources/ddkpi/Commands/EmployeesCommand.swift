import ArgumentParser
import Reports

/// `ddkpi employees --as-of YYYY-MM-DD`: associates ranked by sales per store, then chain-wide.
struct EmployeesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees",
        abstract: "Associates ranked by sales per store, then the chain-wide top N, with LY and projected sales.")

    enum Period: String, ExpressibleByArgument, CaseIterable {
        case wtd = "WTD"
        case mtd = "MTD"
        case qtd = "QTD"
        case ytd = "YTD"
    }

    @OptionGroup var global: GlobalOptions
    @OptionGroup var asOf: AsOfOptions

    @Option(help: "The to-date period: WTD, MTD, QTD or YTD.")
    var period: Period = .mtd

    @OptionGroup var scope: ScopeOptions
    @OptionGroup var ranking: RankingOptions
    @OptionGroup var output: OutputOptions<TableReport>

    func run() throws {
        let context = try ReportContext(global: global)
        let report = try context.engine.employees(
            asOf: try asOf.day(), period: period.rawValue, filter: scope.filter, top: ranking.top)
        let options = try context.documentOptions(scope.filter, through: report.range.end, for: output)
        try output.emitRanking(
            document: { RankingDocument(report) }, options: options,
            text: { format, colour in EmployeeRenderer(colour: colour, options: options).render(report, as: format) })
    }
}
