import Checks
import CivilCalendar
import Feeds
import KPI
import Reports
import Warehouse

/// What one evaluation of the rules saw: for each rule, the scopes it looked at and whether
/// each fires.
public struct AlertEvaluation: Sendable {
    /// The metric and alarm date (SPEC section 24).
    public var asOf: CivilDate
    /// Every (rule, scope, metric) the run judged, with its value now; `state` `.firing` for
    /// those that fire, `.resolved` for those that do not.
    public var observations: [Alert]
    /// The definitions (`AlertRule.definition`) of the rules evaluated, by rule name.
    public var evaluatedRules: [String: String]

    public init(asOf: CivilDate, observations: [Alert], evaluatedRules: [String: String]) {
        self.asOf = asOf
        self.observations = observations
        self.evaluatedRules = evaluatedRules
    }

    /// The alerts that fire now.
    public var firing: [Alert] { observations.filter { $0.state == .firing } }
}

/// Evaluates alert rules with the engine `kpi` uses, so that a metric alert's value is the kpi
/// JSON's, digit for digit (SPEC section 24).
public struct AlertEvaluator {
    public var engine: KPIEngine
    public var checks: CheckSettings
    public var freshness: FreshnessPolicy

    public init(engine: KPIEngine, checks: CheckSettings, freshness: FreshnessPolicy) {
        self.engine = engine
        self.checks = checks
        self.freshness = freshness
    }

    /// Evaluates `rules` as of `asOf` (default: the latest sales-audit day); freshness rules
    /// judge `asOf` when given, else `today`.
    public func evaluate(_ rules: [AlertRule], asOf requested: CivilDate?, today: CivilDate) throws -> AlertEvaluation {
        let warehouse = engine.warehouse
        guard let asOf = try requested ?? warehouse.latestSalesDate() else {
            throw KPIError("no data: the warehouse has no sales-audit rows (give --as-of)")
        }
        var report: KPIReport?
        var alarms: [Alarm]?
        var freshnessReport: FreshnessReport?
        var observations: [Alert] = []
        for rule in rules {
            switch rule.kind {
            case .metric(let watch):
                if report == nil {
                    var engine = self.engine
                    if rules.contains(where: {
                        if case .metric(let w) = $0.kind { w.scope == .comparableAll } else { false }
                    }) {
                        engine.comparableStores = true
                    }
                    report = try engine.kpi(asOf: asOf, filter: .all)
                }
                guard let report else { continue }
                observations += try metricObservations(rule, watch, report)
            case .alarms(let condition):
                if alarms == nil { alarms = try warehouse.alarms(from: asOf, through: asOf, settings: checks) }
                var counts: [String: Int] = [:]
                for alarm in alarms ?? [] { counts[alarm.store, default: 0] += 1 }
                observations += counts.keys.sorted().map { store in
                    let count = counts[store] ?? 0
                    var alert = rule.alert(scope: store, metric: nil, value: .number(String(count)))
                    if !condition.holds(Double(count)) { alert.state = .resolved }
                    return alert
                }
            case .freshness(let missingOnly):
                if freshnessReport == nil {
                    let day = requested ?? today
                    freshnessReport = FreshnessReport(
                        asOf: day, stores: try warehouse.stores(), lastDates: try warehouse.lastDates(notAfter: day),
                        policy: freshness)
                }
                observations += (freshnessReport?.rows ?? []).map { row in
                    let fires = missingOnly ? row.verdict == .missing : row.verdict != .ok
                    var alert = rule.alert(
                        scope: row.scope, metric: row.feed.rawValue, value: .word(row.verdict.rawValue))
                    if !fires { alert.state = .resolved }
                    return alert
                }
            }
        }
        var evaluated: [String: String] = [:]
        for rule in rules { evaluated[rule.name] = rule.definition }
        return AlertEvaluation(asOf: asOf, observations: observations, evaluatedRules: evaluated)
    }

    /// A metric rule's value in each of its scopes, as the kpi JSON writes it.
    private func metricObservations(_ rule: AlertRule, _ watch: AlertRule.MetricWatch, _ report: KPIReport) throws
        -> [Alert]
    {
        guard let definition = MetricDefinition.all.first(where: { $0.key == watch.metric }) else { return [] }
        let byScope = Dictionary(report.scopes.map { ($0.scope, $0) }, uniquingKeysWith: { first, _ in first })
        let isStore = { (scope: String) in ScopeID(scope).isStore }
        let scopes: [ScopeValues]
        switch watch.scope {
        case .stores: scopes = report.scopes.filter { isStore($0.scope) }
        case .regions:
            scopes = report.scopes.filter {
                if case .region = ScopeID($0.scope) { return true }
                return false
            }
        case .all: scopes = report.scopes.filter { ScopeID($0.scope) == .all }
        case .comparableAll: scopes = report.scopes.filter { ScopeID($0.scope) == .comparable(.all) }
        case .storeList(let codes):
            scopes = try codes.map { code in
                guard isStore(code), let scope = byScope[code] else {
                    throw AlertRuleError(
                        "rule \"\(rule.name)\": stores: \"\(code)\" is not a store of the warehouse (see `ddkpi stores list`)"
                    )
                }
                return scope
            }
        case .region(let name):
            guard let scope = byScope[ScopeID.region(name).description] else {
                throw AlertRuleError(
                    "rule \"\(rule.name)\": region = \"\(name)\": expected a region of the store directory")
            }
            scopes = [scope]
        }
        return scopes.compactMap { scope in
            guard let period = scope.periods.first(where: { $0.label == watch.period }),
                let metric = period.metrics.first(where: { $0.key == watch.metric })
            else { return nil }
            guard let text = KPIJSONValue.text(watch.condition.key, of: metric, definition), let value = Double(text)
            else { return nil }
            var alert = rule.alert(scope: scope.scope, metric: watch.metric, value: .number(text))
            if !watch.condition.holds(value) { alert.state = .resolved }
            return alert
        }
    }
}
