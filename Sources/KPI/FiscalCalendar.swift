import CivilCalendar

/// Weeks, months, fiscal quarters and years (SPEC section 7).
///
/// Weeks start on the configured weekday. Fiscal year `Y` starts on the first day of the
/// configured month in calendar year `Y` (with January, the calendar year); its quarters are
/// the three-month blocks from that day, and `YYYYQn` names quarter n of fiscal year `YYYY`.
public struct FiscalCalendar: Sendable {
    /// 0 Monday … 6 Sunday.
    public var weekStart: Int
    /// 1…12.
    public var fiscalYearStartMonth: Int

    public init(weekStart: Int = 0, fiscalYearStartMonth: Int = 1) {
        self.weekStart = weekStart
        self.fiscalYearStartMonth = fiscalYearStartMonth
    }

    /// Week, month, quarter and year to date, each ending on `asOf` (inclusive).
    public func toDate(_ asOf: CivilDate) -> [(label: String, range: DateRange)] {
        toDatePeriods(asOf).map { ($0.label, $0.elapsed) }
    }

    /// Week, month, quarter and year to date, each with its whole period (for projections).
    public func toDatePeriods(_ asOf: CivilDate) -> [ToDatePeriod] {
        let week = asOf.weekStart(on: weekStart)
        let month = CivilDate(year: asOf.year, month: asOf.month, day: 1)
        let year = fiscalYearStart(containing: asOf)
        let monthsIn = (asOf.year - year.year) * 12 + asOf.month - year.month
        let quarter = Self.addMonths(year, monthsIn / 3 * 3)
        let period = { (label: String, start: CivilDate, end: CivilDate) in
            ToDatePeriod(
                label: label, elapsed: DateRange(start: start, end: asOf), full: DateRange(start: start, end: end))
        }
        return [
            period("WTD", week, week.adding(days: 6)),
            period("MTD", month, Self.addMonths(month, 1).adding(days: -1)),
            period("QTD", quarter, Self.addMonths(quarter, 3).adding(days: -1)),
            period("YTD", year, Self.addMonths(year, 12).adding(days: -1)),
        ]
    }

    /// The first day of the fiscal year that contains `date`.
    public func fiscalYearStart(containing date: CivilDate) -> CivilDate {
        let year = date.month >= fiscalYearStartMonth ? date.year : date.year - 1
        return CivilDate(year: year, month: fiscalYearStartMonth, day: 1)
    }

    /// A fiscal quarter from its name, `2025Q2`; `nil` when it is not one.
    public func quarter(named name: String) -> FiscalQuarter? {
        let parts = name.uppercased().split(separator: "Q")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), let number = Int(parts[1]),
            (1...4).contains(number), (1900...9999).contains(year)
        else { return nil }
        let start = Self.addMonths(CivilDate(year: year, month: fiscalYearStartMonth, day: 1), (number - 1) * 3)
        let months = (0..<3).map { offset -> (label: String, range: DateRange) in
            let first = Self.addMonths(start, offset)
            return (Self.monthLabel(first), DateRange(start: first, end: Self.addMonths(first, 1).adding(days: -1)))
        }
        return FiscalQuarter(
            label: "\(year)Q\(number)", months: months,
            range: DateRange(start: start, end: Self.addMonths(start, 3).adding(days: -1)))
    }

    /// The same days one calendar year earlier, for kpi's LY: each end moved back a year, with
    /// February 29 becoming February 28.
    public static func lastYear(_ range: DateRange) -> DateRange {
        DateRange(start: yearEarlier(range.start), end: yearEarlier(range.end))
    }

    /// The whole month or quarter a year before, for the review's LY (`range` spans whole months).
    public static func lastYearWholeMonths(_ range: DateRange) -> DateRange {
        let start = CivilDate(year: range.start.year - 1, month: range.start.month, day: 1)
        let endMonthStart = CivilDate(year: range.end.year - 1, month: range.end.month, day: 1)
        return DateRange(start: start, end: addMonths(endMonthStart, 1).adding(days: -1))
    }

    static func yearEarlier(_ date: CivilDate) -> CivilDate {
        CivilDate(
            year: date.year - 1, month: date.month,
            day: min(date.day, CivilDate.daysIn(month: date.month, year: date.year - 1)))
    }

    /// The first of the month `months` after the month of `date`.
    static func addMonths(_ date: CivilDate, _ months: Int) -> CivilDate {
        let index = date.year * 12 + (date.month - 1) + months
        return CivilDate(year: index / 12, month: index % 12 + 1, day: 1)
    }

    static func monthLabel(_ date: CivilDate) -> String { String(date.iso8601.prefix(7)) }
}

/// A fiscal quarter with its three months, for the review.
public struct FiscalQuarter: Sendable {
    /// `2025Q2`.
    public var label: String
    /// The months, labelled `YYYY-MM`.
    public var months: [(label: String, range: DateRange)]
    public var range: DateRange
}

/// A to-date period: the days elapsed up to the as-of day, and the whole period they belong to.
public struct ToDatePeriod: Sendable, Equatable {
    /// `WTD`, `MTD`, `QTD` or `YTD`.
    public var label: String
    public var elapsed: DateRange
    public var full: DateRange
}
