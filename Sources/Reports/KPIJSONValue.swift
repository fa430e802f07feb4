import KPI

/// A metric's value under one key of the kpi JSON, written as `kpi --format json` writes it
/// (SPEC sections 7, 11 and 22), so that whatever reads it sees the same digits.
public enum KPIJSONValue {
    /// The number keys of every metric.
    public static let plainKeys = ["actual", "target", "pctToTarget", "ly", "pctVsLy"]
    /// The number keys of an additive metric's projection (SPEC section 11).
    public static let projectionKeys = ["projected", "projectedPctToTarget"]
    /// The number keys inside a running period's `full` object (SPEC section 22), without `full.`.
    public static let fullKeys = [
        "target", "projected", "projectedPctToTarget", "needed", "neededPerDay", "remainingDays",
    ]

    /// The JSON text of `key` (`full.` keys inside `full`) for `metric`; `nil` when it has no value there.
    public static func text(_ key: String, of metric: MetricValue, _ definition: MetricDefinition) -> String? {
        if key.hasPrefix("full.") {
            let name = key.dropFirst("full.".count)
            guard metric.full != nil else { return nil }
            return ReportRenderer.fullFields(metric.full, definition).first { $0.name == name }?.value ?? nil
        }
        let fields =
            ReportRenderer.plainFields(metric, definition) + ReportRenderer.projectionFields(metric, definition)
        return fields.first { $0.name == key }?.value ?? nil
    }
}
