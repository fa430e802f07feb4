import OutputText

/// One rule's finding for one scope (SPEC section 24): firing, or resolved since it last fired.
public struct Alert: Sendable, Equatable {
    /// Whether the alert fires now, or fired and no longer does.
    public enum State: String, Sendable {
        case firing, resolved
    }

    public var rule: String
    /// The rule's definition (`AlertRule.definition`): with the rule, scope and metric, the key of its state.
    public var definition: String
    /// `08`, `region:East`, `ALL`, `comp:ALL`.
    public var scope: String
    /// The metric's key, or a freshness alert's feed id; `nil` for an alarm rule.
    public var metric: String?
    /// `WTD` … `YTD`; `nil` for alarm and freshness rules.
    public var period: String?
    /// The value now (`nil` when a resolved alert's value is unknown).
    public var value: AlertValue?
    public var threshold: AlertValue?
    /// The rule's condition for people (`projectedPctToTarget < -0.05`, `late or missing`).
    public var test: String
    public var state: State

    public init(
        rule: String, definition: String, scope: String, metric: String?, period: String?, value: AlertValue?,
        threshold: AlertValue?, test: String, state: State
    ) {
        self.rule = rule
        self.definition = definition
        self.scope = scope
        self.metric = metric
        self.period = period
        self.value = value
        self.threshold = threshold
        self.test = test
        self.state = state
    }

    /// The alert's JSON object (SPEC section 24): rule, scope, metric, period, value, threshold, state.
    public var json: String {
        let text = { (value: String?) in value.map(Self.quoted) ?? "null" }
        return "{\"rule\":\(Self.quoted(rule)),\"scope\":\(Self.quoted(scope)),\"metric\":\(text(metric)),"
            + "\"period\":\(text(period)),\"value\":\(value?.json ?? "null"),"
            + "\"threshold\":\(threshold?.json ?? "null"),\"state\":\"\(state.rawValue)\"}"
    }

    /// The alert as a webhook posts it: its JSON object with `asOf` first.
    public func webhookJSON(asOf: String) -> String { "{\"asOf\":\"\(asOf)\"," + json.dropFirst() }

    private static func quoted(_ text: String) -> String { JSONText.quoted(text) }
}
