import ArgumentParser

/// `ddkpi review --quarter YYYYQn`: the quarterly business review.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The quarterly business review: each month and the quarter, per store, region and company.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var quarter: QuarterOptions
    @Option(help: "The last day included, inside the quarter (YYYY-MM-DD; default: the latest sales-audit day).")
    var asOf: String?
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<ReviewReport>

    func validate() throws { _ = try asOf.map(AsOfOptions.day) }

    func run() throws {
        let context = try ReportContext(global: global)
        let fiscal = try quarter.fiscalQuarter(in: context.engine.calendar)
        let review = try context.engine.review(
            quarter: fiscal, asOf: try asOf.map(AsOfOptions.day), filter: scope.filter)
        try output.emit(
            review,
            options: try context.documentOptions(scope.filter, through: review.asOf ?? fiscal.range.end, for: output))
    }
}
