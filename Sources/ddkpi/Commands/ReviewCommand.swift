import ArgumentParser

/// `ddkpi review --quarter YYYYQn`: the quarterly business review.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The quarterly business review: each month and the quarter, per store, region and company.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var quarter: QuarterOptions
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<ReviewOutputFormat>

    func run() throws {
        let context = try ReportContext(global: global)
        let fiscal = try quarter.fiscalQuarter(in: context.engine.calendar)
        try output.emit(
            try context.engine.review(quarter: fiscal, filter: scope.filter),
            options: try context.documentOptions(scope.filter, through: fiscal.range.end, for: output))
    }
}
