import ArgumentParser

/// `ddkpi kpi [--as-of YYYY-MM-DD]`: week-, month-, quarter- and year-to-date against goals and last year.
struct KPICommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "kpi", abstract: "Week-, month-, quarter- and year-to-date KPIs against goals and last year.")

    static let periodShape = ReportPeriodShape(
        form: .day, asOf: "The last day included (YYYY-MM-DD; default: the latest sales-audit day of the stores).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var period: ReportPeriodOptions<KPICommand>
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<TableReport>

    func run() throws {
        let context = try ReportContext(global: global)
        let report = try context.engine.kpi(asOf: period.day, filter: scope.filter)
        try output.emit(report, options: try context.documentOptions(scope.filter, through: report.asOf, for: output))
    }
}
