import CivilCalendar

/// The months goals are set for (SPEC sections 7 and 21): calendar months, `YYYY-MM`, or the
/// fiscal months of a retail calendar, `FY2025-M04`.
public enum GoalMonths: Sendable, Equatable {
    case calendar
    case fiscal(RetailCalendar)

    /// The days of the month `label` names, when it is a month of this kind.
    public func range(of label: String) -> DateRange? {
        switch self {
        case .calendar:
            guard label.count == 7, let first = CivilDate(iso8601: label + "-01") else { return nil }
            return DateRange(
                start: first, end: first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1))
        case .fiscal(let calendar):
            return RetailCalendar.Month(label: label).map(calendar.range(of:))
        }
    }

    /// What a goal's period must look like, for messages.
    public var expected: String {
        switch self {
        case .calendar: return "a month as YYYY-MM (the calendar is gregorian)"
        case .fiscal(let calendar):
            return "a fiscal month such as FY2025-M04 (the calendar is \(calendar.pattern.rawValue))"
        }
    }
}
