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
        let engine = try ReportContext(global: global).engine
        try output.emit(
            try engine.review(quarter: try quarter.fiscalQuarter(in: engine.calendar), filter: scope.filter))
    }
}
