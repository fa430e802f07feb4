import CivilCalendar
import Warehouse

/// The messages an alert run puts in the outbox (SPEC section 24): for each alert that starts
/// firing or resolves, one per target of its rule's `notify`.
public enum AlertMessages {
    /// The messages for `alerts` as of `asOf`, in order: alert by alert, target by target.
    public static func messages(for alerts: [Alert], rules: [AlertRule], asOf: CivilDate) -> [NewOutboxMessage] {
        let targets = Dictionary(rules.map { ($0.name, $0.notify) }, uniquingKeysWith: { first, _ in first })
        return alerts.flatMap { alert in
            (targets[alert.rule] ?? []).map { target in
                let subject = Self.subject(alert)
                let body =
                    target.hasPrefix("webhook:") ? alert.webhookJSON(asOf: asOf.iso8601) : Self.text(alert, asOf: asOf)
                return NewOutboxMessage(target: target, subject: subject, body: body)
            }
        }
    }

    /// `ddkpi alert firing: behind pace, 08 totalSales MTD`.
    static func subject(_ alert: Alert) -> String {
        let what = [alert.scope, alert.metric, alert.period].compactMap { $0 }.joined(separator: " ")
        return "ddkpi alert \(alert.state.rawValue): \(alert.rule), \(what)"
    }

    /// A mail's text: what fired (or resolved), its value and the rule's condition.
    static func text(_ alert: Alert, asOf: CivilDate) -> String {
        var lines = [
            alert.state == .firing
                ? "The alert \"\(alert.rule)\" fires for \(alert.scope) as of \(asOf.iso8601)."
                : "The alert \"\(alert.rule)\" no longer fires for \(alert.scope) as of \(asOf.iso8601).",
            "",
        ]
        if let metric = alert.metric { lines.append("Metric: \(metric)\(alert.period.map { " (\($0))" } ?? "")") }
        lines.append("Value: \(alert.value?.text ?? "none")")
        lines.append("Fires when: \(alert.test)")
        return lines.joined(separator: "\n") + "\n"
    }
}
