import CivilCalendar

/// One metric of one scope over one period.
public struct MetricValue: Sendable, Equatable {
    public var key: String
    public var actual: Double?
    public var target: Double?
    public var pctToTarget: Double?
    /// The same metric over the last-year period.
    public var ly: Double?
    public var pctVsLY: Double?
    /// The period-end projection, for additive metrics of `kpi` (SPEC section 11); `nil` otherwise.
    public var projection: Projection?
}

/// A scope's metrics over one period.
public struct PeriodValues: Sendable {
    /// `WTD`…`YTD` for kpi; `YYYY-MM` and `YYYYQn` for the review.
    public var label: String
    public var range: DateRange
    /// The days compared with (`nil`: none, a retail 53rd week).
    public var lastYear: DateRange?
    public var metrics: [MetricValue]
    /// For a comp scope (SPEC section 21), how many stores were comparable over the period.
    public var comparableStores: Int?
}

/// One scope: a store, a region or the company.
public struct ScopeValues: Sendable {
    /// `08`, `region:East`, `ALL`, `comp:region:East` or `comp:ALL`.
    public var scope: String
    /// A human title: `08 Natick (East)`, `Region East`, `All stores`.
    public var title: String
    public var periods: [PeriodValues]
}

/// What `kpi` or `review` computed, ready for any renderer.
public struct KPIReport: Sendable {
    public enum Kind: Sendable {
        case kpi(asOf: String)
        case review(quarter: String)
    }

    public var kind: Kind
    public var scopes: [ScopeValues]
}
