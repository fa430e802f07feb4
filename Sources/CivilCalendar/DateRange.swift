/// An inclusive range of days.
public struct DateRange: Hashable, Sendable {
    /// The first day.
    public var start: CivilDate
    /// The last day (included).
    public var end: CivilDate

    /// Creates the range `[start, end]`.
    public init(start: CivilDate, end: CivilDate) {
        self.start = start
        self.end = end
    }

    /// Days in the range (0 when it is empty).
    public var days: Int { max(0, end.daysSinceEpoch - start.daysSinceEpoch + 1) }

    /// Whether `date` lies in the range.
    public func contains(_ date: CivilDate) -> Bool { date >= start && date <= end }

    /// The parts of the range in each calendar month it touches: (`YYYY-MM`, part).
    public var monthParts: [(month: String, part: DateRange)] {
        CivilDate.monthParts(from: start, through: end).map { ($0.month, DateRange(start: $0.start, end: $0.end)) }
    }
}
