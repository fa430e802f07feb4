import Reports

/// `ddkpi alerts`'s output (SPEC section 24): a table for people, or
/// `{"asOf","alerts":[{"rule","scope","metric","period","value","threshold","state"}]}`.
public struct AlertRenderer {
    public init() {}

    /// The alerts as of `asOf`; the text heading counts `firing` (every alert that fires now).
    public func render(_ alerts: [Alert], asOf: String, firing: Int, json: Bool) -> String {
        if json {
            let objects = alerts.map(\.json)
            return "{\"asOf\":\"\(asOf)\",\"alerts\":[" + objects.map { "\n" + $0 }.joined(separator: ",")
                + (objects.isEmpty ? "" : "\n") + "]}\n"
        }
        let resolved = alerts.filter { $0.state == .resolved }.count
        var out = "Alerts as of \(asOf): \(firing) firing"
        out +=
            alerts.isEmpty
            ? ", nothing to notify\n" : ", \(alerts.count - resolved) shown firing, \(resolved) resolved\n"
        guard !alerts.isEmpty else { return out }
        var table = TextTable(alignments: [.left, .left, .left, .left, .left, .right, .left], separator: "  ")
        table.add(["state", "rule", "scope", "metric", "period", "value", "when"])
        for alert in alerts {
            table.add([
                alert.state.rawValue, alert.rule, alert.scope, alert.metric ?? "—", alert.period ?? "—",
                alert.value?.text ?? "—", alert.test,
            ])
        }
        return out + table.render()
    }
}
