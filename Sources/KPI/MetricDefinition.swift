import Warehouse

/// How a metric is shown.
public enum MetricFormat: Sendable {
    /// Dollars: `$12,345`.
    case money
    /// Dollars with cents: `$331.25`.
    case moneyWithCents
    /// A whole count: `1,234`.
    case count
    /// A ratio with two decimals: `1.52`.
    case decimal
    /// A fraction shown as a percent: `45.2%`.
    case percent
}

/// One KPI, defined once as a sum or a ratio of additive measures (SPEC section 7): a new
/// metric is one line in `all`.
public struct MetricDefinition: Sendable {
    public enum Formula: Sendable {
        case sum(any KeyPath<MeasureSums, Double> & Sendable)
        case ratio(numerator: any KeyPath<MeasureSums, Double> & Sendable, denominator: any KeyPath<MeasureSums, Double> & Sendable)
    }

    /// The JSON key, also the `metric` of goals files.
    public var key: String
    /// The label in text reports.
    public var label: String
    public var formula: Formula
    public var format: MetricFormat

    /// Every metric, in report order.
    public static let all: [MetricDefinition] = [
        MetricDefinition(key: "totalSales", label: "Sales", formula: .sum(\.sales), format: .money),
        MetricDefinition(key: "avgAds", label: "Avg sale", formula: .ratio(numerator: \.sales, denominator: \.transactions), format: .moneyWithCents),
        MetricDefinition(key: "upt", label: "UPT", formula: .ratio(numerator: \.items, denominator: \.transactions), format: .decimal),
        MetricDefinition(key: "ccpPct", label: "CCP %", formula: .ratio(numerator: \.ccpWeighted, denominator: \.ccpItems), format: .percent),
        MetricDefinition(key: "gpPct", label: "GP %", formula: .ratio(numerator: \.gpWeighted, denominator: \.gpSales), format: .percent),
        MetricDefinition(key: "creditApps", label: "Credit apps", formula: .sum(\.applications), format: .count),
        MetricDefinition(key: "birdeyeReviews", label: "Reviews", formula: .sum(\.reviews), format: .count),
        MetricDefinition(key: "guestCapture", label: "Guest capture", formula: .sum(\.intakes), format: .count),
        MetricDefinition(key: "outboundCalls", label: "Outbound calls", formula: .sum(\.calls), format: .count),
    ]

    /// The metric's value over summed measures: a sum is 0 with no records; a ratio with a zero
    /// denominator has no value.
    public func value(_ measures: MeasureSums) -> Double? {
        switch formula {
        case .sum(let path): return measures[keyPath: path]
        case .ratio(let numerator, let denominator):
            let base = measures[keyPath: denominator]
            return base == 0 ? nil : measures[keyPath: numerator] / base
        }
    }
}
