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
    /// What the whole period needs, while it runs (SPEC section 22); `nil` otherwise.
    public var full: FullPeriodGoal?
    /// The metric's feed's last data day when the period runs past it (SPEC section 7): actual,
    /// target, LY and projection then cover the days up to it; `nil` otherwise.
    public var dataThrough: CivilDate?
    /// Whether the metric's feed has no data in the period (it starts after the feed's last data
    /// day, or the feed was never loaded): no actual, shown as `no data`, never as a zero.
    public var hasNoData = false

    /// Drops what the period's actual gave (actual, changes, projection, what it takes), keeping
    /// the target and LY: the feed has no data in the period.
    mutating func markNoData() {
        hasNoData = true
        actual = nil
        pctToTarget = nil
        pctVsLY = nil
        projection = nil
        full?.projection = nil
        full?.needed = nil
        full?.actualPerDay = nil
    }
}

/// An additive metric's whole-period target seen from a running period (SPEC section 22): where
/// the to-date pace lands and what it takes to reach the target in the days left.
public struct FullPeriodGoal: Sendable, Equatable {
    /// The whole period's last day.
    public var end: CivilDate
    /// The target of the whole period.
    public var target: Double
    /// The to-date actual projected to the period's end (SPEC section 11); `nil` without an actual.
    public var projection: Projection?
    /// `max(0, target − actual)`; `nil` without an actual.
    public var needed: Double?
    /// The days after the last day counted to the period's end.
    public var remainingDays: Int
    /// The actual so far, per day counted (to compare with `neededPerDay`); `nil` without an actual.
    public var actualPerDay: Double?

    /// `needed / remainingDays`; `nil` when no day remains or without an actual.
    public var neededPerDay: Double? {
        guard let needed, remainingDays > 0 else { return nil }
        return needed / Double(remainingDays)
    }

    /// The goal of a period `elapsed` of whose days are counted, `remainingDays` left to `end`.
    public init(
        end: CivilDate, target: Double, actual: Double?, projection: Projection?, elapsedDays: Int, remainingDays: Int
    ) {
        self.end = end
        self.target = target
        self.projection = projection
        self.needed = actual.map { max(0, target - $0) }
        self.remainingDays = remainingDays
        self.actualPerDay = actual.flatMap { elapsedDays > 0 ? $0 / Double(elapsedDays) : nil }
    }
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
    /// The whole period when `range` is cut before its end (a running period, SPEC section 22);
    /// `nil` for a whole period.
    public var whole: DateRange?

    /// Whether the period is cut at the as-of date before its end.
    public var isRunning: Bool { whole != nil }
}

/// One scope: a store, a region or the company.
public struct ScopeValues: Sendable {
    /// `08`, `region:East`, `ALL`, `comp:region:East` or `comp:ALL`.
    public var scope: String
    /// A human title: `08 Natick (East)`, `Region East`, `All stores`.
    public var title: String
    public var periods: [PeriodValues]
    /// Whether the scope is a store the directory says is closed by the report's last day.
    public var isClosed = false

    public init(scope: String, title: String, isClosed: Bool = false, periods: [PeriodValues]) {
        self.scope = scope
        self.title = title
        self.periods = periods
        self.isClosed = isClosed
    }
}

/// What `kpi` or `review` computed, ready for any renderer.
public struct KPIReport: Sendable {
    public enum Kind: Sendable {
        case kpi(asOf: String)
        case review(quarter: String)
    }

    public var kind: Kind
    public var scopes: [ScopeValues]
    /// The last day the periods count (SPEC sections 7 and 22).
    public var asOf: CivilDate?
    /// Whether kpi's as-of date was not asked for but is the latest sales-audit day (its heading says so).
    public var isLatestData: Bool
    /// The definitions of every period's `metrics`, in the same order: those of the enabled feeds.
    public var metrics: [MetricDefinition]

    public init(
        kind: Kind, scopes: [ScopeValues], asOf: CivilDate? = nil, isLatestData: Bool = false,
        metrics: [MetricDefinition] = MetricDefinition.all
    ) {
        self.kind = kind
        self.scopes = scopes
        self.asOf = asOf
        self.isLatestData = isLatestData
        self.metrics = metrics
    }
}
