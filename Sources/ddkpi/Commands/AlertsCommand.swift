import Alerts
import ArgumentParser
import CivilCalendar
import Feeds
import Foundation
import KPI
import Warehouse

/// `ddkpi alerts`: evaluates the `[[alert]]` rules (SPEC section 24); with `--send`, remembers
/// which fire and notifies those that start firing or resolve. Exit 4 while any fires, 1 when
/// messages stay pending.
struct AlertsCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract:
            "Evaluate the [[alert]] rules (metrics against thresholds, alarms, late feeds); --send notifies; exit 4 while any fires."
    )

    static let periodShape = ReportPeriodShape(
        form: .day,
        asOf: "The metric and alarm date (YYYY-MM-DD; default: the latest sales-audit day; freshness: today).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var period: ReportPeriodOptions<AlertsCommand>

    @Option(help: "A rules file of [[alert]] tables, instead of the config's.")
    var rules: String?

    @Flag(help: "Remember which alerts fire and send what starts firing or resolves (through the outbox).")
    var send = false

    @Flag(help: "Print every firing alert, not only those that start firing or resolve.")
    var all = false

    @Option(help: "Output format: text or json.")
    var format = FormatOption<TextOrJSON>.standard

    func run() throws {
        let configuration = try global.configuration()
        let rules = try loadRules(configuration)
        try Self.checkRules(rules, configuration)
        let requested = period.day
        let warehouse =
            send
            ? try global.openWarehouseForWriting(configuration)
            : try global.openWarehouseUnscoped(configuration, for: "alerts")
        let lock = send ? try warehouse.ingestLockOrExit(waiting: global.lockTimeout) : nil
        if let requested, let last = try warehouse.lastAlertSendDate(), send, requested < last {
            throw ConfigurationError(
                "--as-of \(requested.iso8601): earlier than the as-of date \(last.iso8601) alerts were last sent for; "
                    + "expected \(last.iso8601) or later")
        }
        let evaluator = AlertEvaluator(
            engine: KPIEngine(
                warehouse: warehouse, calendar: configuration.calendar,
                comparableStores: configuration.comparableStores),
            checks: try configuration.checks(against: warehouse), freshness: configuration.freshness)
        let evaluation: AlertEvaluation
        do {
            evaluation = try evaluator.evaluate(rules, asOf: requested, today: CivilDate.today())
        } catch let error as AlertRuleError {
            throw ConfigurationError(error.description)
        }
        let transitions = AlertTransitions(evaluation, rules: rules, remembered: try warehouse.firingAlerts())
        var pending = 0
        if let lock {
            try warehouse.recordAlertRun(
                asOf: evaluation.asOf, started: transitions.startedRows(asOf: evaluation.asOf),
                resolved: transitions.resolved.map(\.stateKey),
                messages: AlertMessages.messages(for: transitions.toNotify, rules: rules, asOf: evaluation.asOf))
            pending = try OutboxDelivery.sendPending(warehouse, configuration, releasing: lock)
        }
        let firing = evaluation.firing
        let shown = all ? firing + transitions.resolved : transitions.toNotify
        try ReportOutput.write(to: nil) { _ in
            AlertRenderer().render(
                shown, asOf: evaluation.asOf.iso8601, firing: firing.count, json: format.value == .json)
        }
        if pending > 0 { throw ExitCode(ExitStatus.inputFailed) }
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

    /// Every `webhook:NAME` a rule notifies must be a name of `[webhooks]`, and every metric a
    /// rule watches one of a feed in `[feeds] enabled` (a rule on another could never fire).
    static func checkRules(_ rules: [AlertRule], _ configuration: Configuration) throws {
        for rule in rules {
            if case .metric(let watch) = rule.kind,
                let feed = MetricDefinition.all.first(where: { $0.key == watch.metric })?.feed,
                !configuration.enabledFeeds.contains(feed)
            {
                let enabled = FeedID.dataFeeds.filter(configuration.enabledFeeds.contains).map(\.rawValue)
                throw ConfigurationError(
                    "rule \"\(rule.name)\": metric = \"\(watch.metric)\": expected a metric of a feed in [feeds] enabled "
                        + "(\(enabled.joined(separator: ", "))); \(watch.metric) is a metric of \(feed.rawValue)")
            }
            for target in rule.notify where target.hasPrefix("webhook:") {
                let name = String(target.dropFirst("webhook:".count))
                guard configuration.delivery.webhooks[name] != nil else {
                    throw ConfigurationError(
                        "rule \"\(rule.name)\": notify = \"\(target)\": expected a name of the config's [webhooks] "
                            + "(\(configuration.delivery.webhooks.keys.sorted().joined(separator: ", ")))")
                }
            }
        }
    }
}
