/// Pace to goal: where a to-date actual lands at the period's end (SPEC section 11).
public struct Projection: Sendable, Equatable {
    /// The projected period-end value.
    public var value: Double
    /// `value / fullTarget − 1`; `nil` without a full-period target (or when it is 0).
    public var pctToTarget: Double?

    /// Projects `actual`, reached over `elapsedDays` of a `fullDays`-day period.
    ///
    /// With a target for the whole period and for the elapsed part, the actual is scaled by their
    /// ratio (pace against the target's own shape: daily targets that load weekends count);
    /// otherwise, and when the elapsed target is 0, by days (linear run rate). A complete period
    /// projects its actual.
    public init(
        actual: Double, elapsedDays: Int, fullDays: Int, elapsedTarget: Double? = nil, fullTarget: Double? = nil
    ) {
        if elapsedDays >= fullDays || elapsedDays <= 0 {
            value = actual
        } else if let fullTarget, let elapsedTarget, elapsedTarget != 0 {
            value = actual * fullTarget / elapsedTarget
        } else {
            value = actual * Double(fullDays) / Double(elapsedDays)
        }
        pctToTarget = fullTarget.flatMap { $0 == 0 ? nil : value / $0 - 1 }
    }
}
