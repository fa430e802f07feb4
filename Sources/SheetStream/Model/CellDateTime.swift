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
        let time = Self.twoDigits(secondsOfDay / 3600) + ":" + Self.twoDigits(secondsOfDay / 60 % 60) + ":"
            + Self.twoDigits(secondsOfDay % 60)
        if isTimeOnly { return time }
        let date = civil.iso8601
        return secondsOfDay == 0 ? date : date + "T" + time
    }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// A proleptic Gregorian calendar date.
public struct CivilDate: Hashable, Comparable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The civil date of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
    public init(daysSinceEpoch: Int) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01 of a civil date (H. Hinnant's `days_from_civil`).
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Days since 1970-01-01 of this date.
    public var daysSinceEpoch: Int { Self.daysSinceEpoch(year: year, month: month, day: day) }

    /// Whether `year` is a Gregorian leap year.
    public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    /// The number of days in a month of a year.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// 0 for Monday … 6 for Sunday.
    public var weekdayIndex: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    /// The last day on or before this one that falls on `weekday` (0 Monday … 6 Sunday): the
    /// start of its week when weeks start on that weekday.
    public func weekStart(on weekday: Int) -> CivilDate {
        adding(days: -((weekdayIndex - weekday + 7) % 7))
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// The calendar-month parts of `[start, end]`: each month's label (`YYYY-MM`) with the first
    /// and last day of the range inside it.
    public static func monthParts(from start: CivilDate, through end: CivilDate)
        -> [(month: String, start: CivilDate, end: CivilDate)]
    {
        var parts: [(String, CivilDate, CivilDate)] = []
        var cursor = start
        while cursor <= end {
            let monthEnd = CivilDate(year: cursor.year, month: cursor.month, day: daysIn(month: cursor.month, year: cursor.year))
            let partEnd = min(monthEnd, end)
            parts.append((String(cursor.iso8601.prefix(7)), cursor, partEnd))
            cursor = partEnd.adding(days: 1)
        }
        return parts
    }

    /// Parses `YYYY-MM-DD`.
    public init?(iso8601 text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
              let day = Int(parts[2]), (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var iso8601: String {
        let y = String(year)
        let padded = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - y.count) + y : y
        return padded + "-" + CellDateTime.twoDigits(month) + "-" + CellDateTime.twoDigits(day)
    }
}
