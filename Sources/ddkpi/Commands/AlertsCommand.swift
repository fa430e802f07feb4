import Alerts
import ArgumentParser
import CivilCalendar
import KPI

/// `ddkpi alerts`: evaluates the `[[alert]]` rules (SPEC section 24); exit 4 while any fires.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract:
            "Evaluate the [[alert]] rules: metrics against thresholds, alarms, late feeds; exit 4 while any fires."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json }

    @OptionGroup var global: GlobalOptions

    @Option(help: "The metric and alarm date (YYYY-MM-DD; default: the latest sales-audit day; freshness: today).")
    var asOf: String?

    @Option(help: "A rules file of [[alert]] tables, instead of the config's.")
    var rules: String?

    @Flag(help: "Print every firing alert, not only those that start firing or resolve.")
    var all = false

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    func validate() throws { _ = try asOf.map(AsOfOptions.day) }

    func run() throws {
        let configuration = try global.configuration()
        let rules = try loadRules(configuration)
        let context = try ReportContext(global: global)
        let evaluator = AlertEvaluator(
            engine: context.engine, checks: configuration.checks, freshness: configuration.freshness)
        let evaluation: AlertEvaluation
        do {
            evaluation = try evaluator.evaluate(rules, asOf: try asOf.map(AsOfOptions.day), today: CivilDate.today())
        } catch let error as AlertRuleError {
            throw ConfigurationError(error.description)
        }
        let firing = evaluation.firing
        try ReportOutput.write(to: nil) { _ in
            AlertRenderer().render(
                firing, asOf: evaluation.asOf.iso8601, firing: firing.count, json: format == .json)
        }
        if !firing.isEmpty { throw ExitCode(ExitStatus.alertsFiring) }
    }

    /// The rules of `--rules`, else the config's.
    private func loadRules(_ configuration: Configuration) throws -> [AlertRule] {
        guard let rules else { return configuration.alertRules }
        do {
            return try AlertRules.load(path: rules)
        } catch let error as AlertRuleError {
            throw ConfigurationError(error.description)
        }
    }
}
