import CivilCalendar

/// A calendar date and time of day with no time zone, as spreadsheets store them.
///
/// Held as whole days since 1970-01-01 plus seconds into the day (rounded to whole seconds),
/// so it converts cheaply to both civil dates and Excel serial numbers.
public struct CellDateTime: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    public var daysSinceEpoch: Int
    /// Seconds since midnight, 0..<86400.
    public var secondsOfDay: Int
    /// Whether the value is a time of day with no date (an Excel serial in 0..<1, or `t="d"` `HH:MM:SS`).
    public var isTimeOnly: Bool

    /// Creates a value from days since 1970-01-01 and seconds into the day.
    public init(daysSinceEpoch: Int, secondsOfDay: Int = 0, isTimeOnly: Bool = false) {
        self.daysSinceEpoch = daysSinceEpoch
        self.secondsOfDay = secondsOfDay
        self.isTimeOnly = isTimeOnly
    }

    /// Creates a value from a proleptic Gregorian civil date and time; `nil` when out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        self.init(
            daysSinceEpoch: CivilDate.daysSinceEpoch(year: year, month: month, day: day),
            secondsOfDay: hour * 3600 + minute * 60 + second)
    }

    /// The civil date (year, month, day).
    public var civil: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch) }

    public static func < (lhs: CellDateTime, rhs: CellDateTime) -> Bool {
        (lhs.daysSinceEpoch, lhs.secondsOfDay) < (rhs.daysSinceEpoch, rhs.secondsOfDay)
    }

    /// ISO 8601 text: `2025-07-15`, `2025-07-15T13:45:00` with a time, `13:45:00` for time-only values.
    public var iso8601: String {
        let time =
            CivilDate.twoDigits(secondsOfDay / 3600) + ":" + CivilDate.twoDigits(secondsOfDay / 60 % 60) + ":"
            + CivilDate.twoDigits(secondsOfDay % 60)
        if isTimeOnly { return time }
        let date = civil.iso8601
        return secondsOfDay == 0 ? date : date + "T" + time
    }
}
