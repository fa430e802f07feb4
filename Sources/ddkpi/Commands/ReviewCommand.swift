import ArgumentParser

/// `ddkpi review --quarter YYYYQn`: the quarterly business review.
struct ReviewCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The quarterly business review: each month and the quarter, per store, region and company.")

    static let periodShape = ReportPeriodShape(
        form: .quarter, quarter: "The fiscal quarter, such as 2025Q2.",
        asOf: "The last day included, inside the quarter (YYYY-MM-DD; default: the latest sales-audit day).")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var period: ReportPeriodOptions<ReviewCommand>
    @OptionGroup var scope: ScopeOptions
    @OptionGroup var output: OutputOptions<ReviewReport>

    func run() throws {
        let context = try ReportContext(global: global)
        guard case .quarter(let fiscal, let asOf, _) = try period.resolve(in: context.engine.calendar) else {
            throw ValidationError("review takes --quarter")
        }
        let review = try context.engine.review(quarter: fiscal, asOf: asOf, filter: scope.filter)
        try output.emit(
            review,
            options: try context.documentOptions(scope.filter, through: review.asOf ?? fiscal.range.end, for: output))
    }
}
