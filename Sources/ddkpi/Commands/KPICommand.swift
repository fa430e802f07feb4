import ArgumentParser

/// `ddkpi kpi [--as-of YYYY-MM-DD]`: week-, month-, quarter- and year-to-date against goals and last year.
struct KPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kpi", abstract: "Week-, month-, quarter- and year-to-date KPIs against goals and last year.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "The last day included (YYYY-MM-DD; default: the latest sales-audit day of the stores).")
    var asOf: String?
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<TableReport>

    func validate() throws { _ = try asOf.map(AsOfOptions.day) }

    func run() throws {
        let context = try ReportContext(global: global)
        let report = try context.engine.kpi(asOf: try asOf.map(AsOfOptions.day), filter: scope.filter)
        try output.emit(report, options: try context.documentOptions(scope.filter, through: report.asOf, for: output))
    }
}
