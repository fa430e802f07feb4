import ArgumentParser

/// `ddkpi kpi --as-of YYYY-MM-DD`: week-, month-, quarter- and year-to-date against goals and last year.
struct KPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kpi", abstract: "Week-, month-, quarter- and year-to-date KPIs against goals and last year.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var asOf: AsOfOptions
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<TableOutputFormat>

    func run() throws {
        try output.emit(try ReportContext(global: global).engine.kpi(asOf: try asOf.day(), filter: scope.filter))
    }
}
