import CivilCalendar

/// The time grain of an associate or merch row: one day, or one whole calendar month.
public enum ReportGrain: Equatable, Hashable, Sendable {
    case day(CivilDate)
    /// The month's first day.
    case month(CivilDate)

    /// The stored key: `YYYY-MM-DD` for a day, `YYYY-MM` for a month.
    public var key: String {
        switch self {
        case .day(let date): return date.iso8601
        case .month(let first): return first.iso8601Month
        }
    }

    /// `day` or `month`, the grain column's value.
    public var name: String {
        if case .day = self { return "day" }
        return "month"
    }

    /// The last day the row covers (a month row covers its whole month).
    public var lastDay: CivilDate {
        switch self {
        case .day(let date): return date
        case .month(let first): return first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
        }
    }
}
