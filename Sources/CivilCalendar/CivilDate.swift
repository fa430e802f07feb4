/// A proleptic Gregorian calendar date.
public struct CivilDate: Hashable, Comparable, Sendable {
    /// The year (astronomical numbering: 0 is 1 BC).
    public var year: Int
    /// 1…12.
    public var month: Int
    /// 1…31.
    public var day: Int

    /// Creates a date from its parts, unchecked (see `init?(iso8601:)` for a checked one).
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

    /// Calendar order.
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

    /// Parses `YYYY-MM-DD`.
    public init?(iso8601 text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2]), (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// `YYYY-MM-DD`.
    public var iso8601: String { iso8601Month + "-" + Self.twoDigits(day) }

    /// `YYYY-MM`, the date's month as month keys and labels are written (the first seven
    /// characters of `iso8601` for the years 0–9999).
    public var iso8601Month: String {
        let y = String(year)
        let padded = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - y.count) + y : y
        return padded + "-" + Self.twoDigits(month)
    }

    /// A number below 100 as two digits, `07`, as ISO 8601 writes months, days and clock fields.
    public static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
