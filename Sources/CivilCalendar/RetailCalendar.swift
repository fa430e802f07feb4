/// The National Retail Federation's fiscal calendar and its 4-4-5 and 5-4-4 variants (SPEC
/// section 21).
///
/// A fiscal year ends on the Saturday nearest January 31 and is named by the calendar year it
/// begins in (FY2024 = 2024-02-04 … 2025-02-01); weeks run Sunday to Saturday. Each quarter has
/// 13 weeks split into three fiscal months by `pattern` (4-5-4 for the NRF calendar), and a
/// 53-week year gives its extra week to month 12, so its fourth quarter has 14 weeks.
public struct RetailCalendar: Hashable, Sendable {
    /// The weeks of a quarter's three months.
    public enum Pattern: String, CaseIterable, Sendable {
        case nrf454 = "nrf-454"
        case p445 = "445"
        case p544 = "544"

        /// Weeks in the first, second and third month of each quarter.
        public var weeks: [Int] {
            switch self {
            case .nrf454: return [4, 5, 4]
            case .p445: return [4, 4, 5]
            case .p544: return [5, 4, 4]
            }
        }
    }

    /// A fiscal month: its year and number (1…12).
    public struct Month: Hashable, Sendable {
        public var year: Int
        public var number: Int

        public init(year: Int, number: Int) {
            self.year = year
            self.number = number
        }

        /// `FY2025-M04`.
        public var label: String { "FY\(year)-M\(CivilDate.twoDigits(number))" }

        /// The month a label such as `FY2025-M04` names; `nil` for anything else.
        public init?(label: String) {
            let text = label.uppercased()
            guard text.count == 10, text.hasPrefix("FY"), text.dropFirst(6).hasPrefix("-M"),
                let year = Int(text.dropFirst(2).prefix(4)), let number = Int(text.suffix(2)), (1...12).contains(number)
            else { return nil }
            self.init(year: year, number: number)
        }
    }

    public var pattern: Pattern

    public init(pattern: Pattern = .nrf454) { self.pattern = pattern }

    /// The last day of fiscal year `year`: the Saturday nearest January 31 of the next calendar year.
    public static func yearEnd(_ year: Int) -> CivilDate {
        let january31 = CivilDate(year: year + 1, month: 1, day: 31)
        let ahead = (5 - january31.weekdayIndex + 7) % 7  // days to the next Saturday (5)
        return january31.adding(days: ahead <= 3 ? ahead : ahead - 7)
    }

    /// The first day of fiscal year `year` (a Sunday).
    public static func yearStart(_ year: Int) -> CivilDate { yearEnd(year - 1).adding(days: 1) }

    /// The days of fiscal year `year`.
    public static func year(_ year: Int) -> DateRange { DateRange(start: yearStart(year), end: yearEnd(year)) }

    /// 52 or 53.
    public static func weeks(in year: Int) -> Int { Self.year(year).days / 7 }

    /// The fiscal year a day belongs to.
    public static func fiscalYear(containing date: CivilDate) -> Int {
        date > yearEnd(date.year - 1) ? date.year : date.year - 1
    }

    /// The fiscal week (Sunday to Saturday) that contains `date`, with its number in the year (1…53).
    public static func week(containing date: CivilDate) -> (number: Int, range: DateRange) {
        let start = date.weekStart(on: 6)
        let number = (start.daysSinceEpoch - yearStart(fiscalYear(containing: date)).daysSinceEpoch) / 7 + 1
        return (number, DateRange(start: start, end: start.adding(days: 6)))
    }

    /// Week `number` (1…53) of fiscal year `year`; `nil` when the year has no such week.
    public static func week(_ number: Int, of year: Int) -> DateRange? {
        guard number >= 1, number <= weeks(in: year) else { return nil }
        let start = yearStart(year).adding(days: (number - 1) * 7)
        return DateRange(start: start, end: start.adding(days: 6))
    }

    /// The days of a fiscal month (month 12 of a 53-week year has the extra week).
    public func range(of month: Month) -> DateRange {
        let weeksBefore = (0..<(month.number - 1)).reduce(0) { $0 + pattern.weeks[$1 % 3] }
        var weeks = pattern.weeks[(month.number - 1) % 3]
        if month.number == 12 { weeks += Self.weeks(in: month.year) - 52 }
        let start = Self.yearStart(month.year).adding(days: weeksBefore * 7)
        return DateRange(start: start, end: start.adding(days: weeks * 7 - 1))
    }

    /// The fiscal month that contains `date`.
    public func month(containing date: CivilDate) -> Month {
        let year = Self.fiscalYear(containing: date)
        let weekIndex = (date.daysSinceEpoch - Self.yearStart(year).daysSinceEpoch) / 7
        var weeksBefore = 0
        for number in 1...11 {
            weeksBefore += pattern.weeks[(number - 1) % 3]
            if weekIndex < weeksBefore { return Month(year: year, number: number) }
        }
        return Month(year: year, number: 12)
    }

    /// The days of quarter `number` (1…4) of fiscal year `year`.
    public func quarter(_ number: Int, of year: Int) -> DateRange {
        let first = range(of: Month(year: year, number: number * 3 - 2))
        return DateRange(start: first.start, end: range(of: Month(year: year, number: number * 3)).end)
    }

    /// The fiscal months that `range` touches, each with the part of `range` inside it.
    public func monthParts(of range: DateRange) -> [(month: Month, part: DateRange)] {
        var parts: [(Month, DateRange)] = []
        var cursor = range.start
        while cursor <= range.end {
            let month = month(containing: cursor)
            let end = min(self.range(of: month).end, range.end)
            parts.append((month, DateRange(start: cursor, end: end)))
            cursor = end.adding(days: 1)
        }
        return parts
    }
}
