import Feeds
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
/// metric is one line in `all`. A ratio divides sums over the rows that report both its parts
/// (SPEC section 26: a file may lack transactions or items), as CCP % always has.
public struct MetricDefinition: Sendable {
    public typealias Measure = any KeyPath<MeasureSums, Int128> & Sendable

    public enum Formula: Sendable {
        /// Σ measure ÷ `unit` (100 for cents to dollars, else 1).
        case sum(Measure, unit: Int128)
        /// Σ numerator ÷ (Σ denominator × `unit`): one division of exact sums.
        case ratio(numerator: Measure, denominator: Measure, unit: Int128)

        /// The measure a ratio is weighted by, `nil` for a sum.
        public var denominator: Measure? {
            if case .ratio(_, let denominator, _) = self { return denominator }
            return nil
        }
    }

    /// The JSON key, also the `metric` of goals files.
    public var key: String
    /// The label in text reports.
    public var label: String
    public var formula: Formula
    public var format: MetricFormat
    /// The feed whose rows the metric's measures come from (its last data day bounds it, SPEC section 7).
    public var feed: FeedID = .salesAudit

    /// Every metric, in report order.
    public static let all: [MetricDefinition] = [
        MetricDefinition(key: "totalSales", label: "Sales", formula: .sum(\.salesCents, unit: 100), format: .money),
        MetricDefinition(
            key: "avgAds", label: "Avg sale",
            formula: .ratio(numerator: \.salesCentsWithTransactions, denominator: \.transactions, unit: 100),
            format: .moneyWithCents),
        MetricDefinition(
            key: "upt", label: "UPT",
            formula: .ratio(numerator: \.itemsWithTransactions, denominator: \.transactionsWithItems, unit: 1),
            format: .decimal),
        MetricDefinition(
            key: "ccpPct", label: "CCP %",
            formula: .ratio(numerator: \.ccpWeighted, denominator: \.ccpItems, unit: 1_000_000), format: .percent),
        MetricDefinition(
            key: "gpPct", label: "GP %",
            formula: .ratio(numerator: \.gpWeighted, denominator: \.gpSalesCents, unit: 1_000_000), format: .percent),
        MetricDefinition(
            key: "creditApps", label: "Credit apps", formula: .sum(\.applications, unit: 1), format: .count,
            feed: .creditApps),
        MetricDefinition(
            key: "birdeyeReviews", label: "Reviews", formula: .sum(\.reviews, unit: 1), format: .count,
            feed: .birdeyeReviews),
        MetricDefinition(
            key: "guestCapture", label: "Guest capture", formula: .sum(\.intakes, unit: 1), format: .count,
            feed: .crmIntakes),
        MetricDefinition(
            key: "outboundCalls", label: "Outbound calls", formula: .sum(\.calls, unit: 1), format: .count,
            feed: .outboundCalls),
    ]

    /// The metric a person names by its JSON key or by the label the tables print (`Sales`,
    /// `avg sale`, `CCP%`), ignoring case and spaces.
    public static func named(_ name: String) -> MetricDefinition? {
        let wanted = folded(name)
        return all.first { folded($0.key) == wanted || folded($0.label) == wanted }
    }

    /// A name lower-cased without spaces, as `named` compares it.
    private static func folded(_ name: String) -> String {
        String(name.lowercased().filter { !$0.isWhitespace })
    }

    /// Whether the metric is a sum (projected, prorated) rather than a ratio.
    public var isAdditive: Bool { formula.denominator == nil }

    /// The metric's value over summed measures: a sum is 0 with no records; a ratio with a zero
    /// denominator has no value. Either is one correctly rounded division of exact integers.
    public func value(_ measures: MeasureSums) -> Double? {
        switch formula {
        case .sum(let path, let unit):
            return Self.divide(measures[keyPath: path], by: unit)
        case .ratio(let numerator, let denominator, let unit):
            let base = measures[keyPath: denominator]
            return base == 0 ? nil : Self.divide(measures[keyPath: numerator], by: base * unit)
        }
    }

    /// `numerator / denominator` as a `Double`: exact operands below 2^53 (every realistic sum)
    /// make it the correctly rounded quotient.
    static func divide(_ numerator: Int128, by denominator: Int128) -> Double {
        denominator == 1 ? double(numerator) : double(numerator) / double(denominator)
    }

    /// `value` as the nearest `Double`; through `Int64` when it fits, which is exact to the same
    /// bits and much faster than the generic 128-bit conversion.
    static func double(_ value: Int128) -> Double {
        if let small = Int64(exactly: value) { return Double(small) }
        return Double(value)
    }
}
