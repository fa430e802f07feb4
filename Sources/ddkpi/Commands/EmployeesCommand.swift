import ArgumentParser
import Reports

/// `ddkpi employees --as-of YYYY-MM-DD`: associates ranked by sales per store, then chain-wide.
struct EmployeesCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees",
        abstract: "Associates ranked by sales per store, then the chain-wide top N, with LY and projected sales.")

    static let periodShape = ReportPeriodShape(
        form: .toDate, asOf: "The last day included (YYYY-MM-DD).", period: "The to-date period: WTD, MTD, QTD or YTD.",
        periods: ReportPeriod.toDateLabels, listsStandardPeriod: true)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var period: ReportPeriodOptions<EmployeesCommand>
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var ranking: RankingOptions
    @OptionGroup var output: OutputOptions<TableReport>

    func run() throws {
        let context = try ReportContext(global: global)
        guard case .toDate(let asOf, let label) = try period.resolve(in: context.engine.calendar) else {
            throw ValidationError("employees takes --as-of")
        }
        let report = try context.engine.employees(asOf: asOf, period: label, filter: scope.filter, top: ranking.top)
        let options = try context.documentOptions(scope.filter, through: report.range.end, for: output)
        try output.emitRanking(
            document: { RankingDocument(report) }, options: options,
            text: { format, colour in EmployeeRenderer(colour: colour, options: options).render(report, as: format) })
    }
}
