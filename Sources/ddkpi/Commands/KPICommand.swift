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
        let context = try ReportContext(global: global)
        let day = try asOf.day()
        try output.emit(
            try context.engine.kpi(asOf: day, filter: scope.filter),
            options: try context.documentOptions(scope.filter, through: day, for: output))
    }
}
