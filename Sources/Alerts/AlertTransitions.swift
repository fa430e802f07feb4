import CivilCalendar
import Warehouse

/// What an evaluation changes against the remembered state (SPEC section 24): alerts that start
/// firing and alerts that resolve; only rules evaluated in the run change state.
public struct AlertTransitions: Sendable {
    /// Firing now, not before: notified with `state: "firing"`.
    public var started: [Alert]
    /// Fired before, evaluated now and no longer firing: notified once with `state: "resolved"`.
    public var resolved: [Alert]

    /// What to notify: the alerts that start firing, then those that resolve.
    public var toNotify: [Alert] { started + resolved }

    /// Compares `evaluation` with the alerts the warehouse remembers as firing.
    public init(_ evaluation: AlertEvaluation, rules: [AlertRule], remembered: [AlertStateRow]) {
        let firingKeys = Set(evaluation.firing.map(\.stateKey))
        let rememberedKeys = Set(remembered.map(\.key))
        started = evaluation.firing.filter { !rememberedKeys.contains($0.stateKey) }
        let observed = Dictionary(
            evaluation.observations.map { ($0.stateKey, $0) }, uniquingKeysWith: { first, _ in first })
        let rulesByName = Dictionary(rules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        resolved = remembered.compactMap { row in
            guard evaluation.evaluatedRules[row.key.rule] == row.key.definition, !firingKeys.contains(row.key),
                let rule = rulesByName[row.key.rule]
            else { return nil }
            var alert =
                observed[row.key]
                ?? rule.alert(scope: row.key.scope, metric: row.key.metric.isEmpty ? nil : row.key.metric, value: nil)
            alert.state = .resolved
            return alert
        }
    }

    /// The state rows of the alerts that start firing, as of `asOf`.
    public func startedRows(asOf: CivilDate) -> [AlertStateRow] {
        started.map { AlertStateRow(key: $0.stateKey, firingSince: asOf.iso8601, value: $0.value?.json) }
    }
}

extension Alert {
    /// The key of the alert's state: rule, definition, scope, metric (empty for none).
    public var stateKey: AlertStateKey {
        AlertStateKey(rule: rule, definition: definition, scope: scope, metric: metric ?? "")
    }
}

extension AlertRule {
    /// An alert of this rule for `scope` (and `metric`: a freshness rule's feed), with `value`;
    /// firing until told otherwise.
    func alert(scope: String, metric: String?, value: AlertValue?) -> Alert {
        switch kind {
        case .metric(let watch):
            return Alert(
                rule: name, definition: definition, scope: scope, metric: watch.metric, period: watch.period,
                value: value, threshold: .number(AlertValue.numberText(watch.condition.threshold)),
                test: watch.condition.text, state: .firing)
        case .alarms(let condition):
            return Alert(
                rule: name, definition: definition, scope: scope, metric: nil, period: nil, value: value,
                threshold: .number(AlertValue.numberText(condition.threshold)), test: condition.text, state: .firing)
        case .freshness(let missingOnly):
            return Alert(
                rule: name, definition: definition, scope: scope, metric: metric, period: nil, value: value,
                threshold: .word(missingOnly ? "missing" : "late"), test: missingOnly ? "missing" : "late or missing",
                state: .firing)
        }
    }
}
