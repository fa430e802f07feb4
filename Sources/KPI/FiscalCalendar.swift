import CivilCalendar
import Feeds

/// The reporting calendar (SPEC sections 7 and 21): weeks, months, quarters and years, the
/// months goals are set for, and which days each period compares with last year.
///
/// - Gregorian (the default): weeks start on the configured weekday; fiscal year `Y` starts on
///   the first day of the configured month in calendar year `Y`, its quarters are the
///   three-month blocks from that day, and `YYYYQn` names quarter n of fiscal year `YYYY`.
///   Goals are set per calendar month (`YYYY-MM`).
/// - Retail (`nrf-454`, `445`, `544`): `RetailCalendar`'s fiscal weeks, months, quarters and
///   years; `2025Q2` (or `FY2025Q2`) names quarter 2 of FY2025, labelled `FY2025Q2`, its months
///   `FY2025-M04`…; goals are set per fiscal month (`FY2025-M04`).
///
/// Storage stays by calendar day and month whatever the calendar: reports sum calendar-month
/// rollups and daily rows into these periods.
public struct FiscalCalendar: Sendable {
    /// Which calendar the periods follow.
    public enum Kind: Sendable, Equatable {
        case gregorian
        case retail(RetailCalendar)

        /// The names `[calendar] kind` takes: `gregorian`, `nrf-454`, `445`, `544`.
        public init?(name: String) {
            if name == "gregorian" {
                self = .gregorian
            } else if let pattern = RetailCalendar.Pattern(rawValue: name) {
                self = .retail(RetailCalendar(pattern: pattern))
            } else {
                return nil
            }
        }

        public static let names = ["gregorian"] + RetailCalendar.Pattern.allCases.map(\.rawValue)
    }

    /// What a period compares with (`[calendar] ly`).
    public enum LastYearRule: String, Sendable, CaseIterable {
        /// The same dates a year earlier (gregorian's default; see `lastYear(_:)`).
        case date
        /// Gregorian: the same days 364 days earlier. Retail: the same-numbered fiscal period a
        /// year earlier, the same number of days from its start (retail's default).
        case weekday
    }

    /// 0 Monday … 6 Sunday (gregorian weeks; retail weeks run Sunday to Saturday).
    public var weekStart: Int
    /// 1…12 (gregorian fiscal years).
    public var fiscalYearStartMonth: Int
    public var kind: Kind
    public var lastYearRule: LastYearRule

    /// A calendar; `lastYearRule` defaults to `date` for gregorian and `weekday` for retail kinds.
    public init(
        weekStart: Int = 0, fiscalYearStartMonth: Int = 1, kind: Kind = .gregorian, lastYearRule: LastYearRule? = nil
    ) {
        self.weekStart = weekStart
        self.fiscalYearStartMonth = fiscalYearStartMonth
        self.kind = kind
        self.lastYearRule = lastYearRule ?? (kind == .gregorian ? .date : .weekday)
    }

    /// Week, month, quarter and year to date, each ending on `asOf` (inclusive).
    public func toDate(_ asOf: CivilDate) -> [(label: String, range: DateRange)] {
        toDatePeriods(asOf).map { ($0.label, $0.elapsed) }
    }

    /// Week, month, quarter and year to date, each with its whole period (for projections) and
    /// the days it compares with last year.
    public func toDatePeriods(_ asOf: CivilDate) -> [ToDatePeriod] {
        switch kind {
        case .gregorian:
            let week = asOf.weekStart(on: weekStart)
            let month = CivilDate(year: asOf.year, month: asOf.month, day: 1)
            let year = fiscalYearStart(containing: asOf)
            let monthsIn = (asOf.year - year.year) * 12 + asOf.month - year.month
            let quarter = Self.addMonths(year, monthsIn / 3 * 3)
            return [
                ("WTD", DateRange(start: week, end: week.adding(days: 6))),
                ("MTD", DateRange(start: month, end: Self.addMonths(month, 1).adding(days: -1))),
                ("QTD", DateRange(start: quarter, end: Self.addMonths(quarter, 3).adding(days: -1))),
                ("YTD", DateRange(start: year, end: Self.addMonths(year, 12).adding(days: -1))),
            ].map { label, full in
                let elapsed = DateRange(start: full.start, end: asOf)
                return ToDatePeriod(label: label, elapsed: elapsed, full: full, lastYear: gregorianLastYear(elapsed))
            }
        case .retail(let retail):
            let year = RetailCalendar.fiscalYear(containing: asOf)
            let week = RetailCalendar.week(containing: asOf)
            let month = retail.month(containing: asOf)
            let quarter = (month.number - 1) / 3 + 1
            let periods: [(String, DateRange, DateRange?)] = [
                ("WTD", week.range, RetailCalendar.week(week.number, of: year - 1)),
                (
                    "MTD", retail.range(of: month),
                    retail.range(of: RetailCalendar.Month(year: year - 1, number: month.number))
                ),
                ("QTD", retail.quarter(quarter, of: year), retail.quarter(quarter, of: year - 1)),
                ("YTD", RetailCalendar.year(year), RetailCalendar.year(year - 1)),
            ]
            return periods.map { label, full, previous in
                let elapsed = DateRange(start: full.start, end: asOf)
                let lastYear: DateRange?
                switch lastYearRule {
                case .date: lastYear = Self.lastYear(elapsed)
                case .weekday: lastYear = previous.map { Self.sameDays(as: elapsed, from: $0) }
                }
                return ToDatePeriod(label: label, elapsed: elapsed, full: full, lastYear: lastYear)
            }
        }
    }

    /// The first day of the fiscal year that contains `date`.
    public func fiscalYearStart(containing date: CivilDate) -> CivilDate {
        switch kind {
        case .gregorian:
            let year = date.month >= fiscalYearStartMonth ? date.year : date.year - 1
            return CivilDate(year: year, month: fiscalYearStartMonth, day: 1)
        case .retail:
            return RetailCalendar.yearStart(RetailCalendar.fiscalYear(containing: date))
        }
    }

    /// A fiscal quarter from its name, `2025Q2` or `FY2025Q2`; `nil` when it is not one.
    public func quarter(named name: String) -> FiscalQuarter? {
        var text = name.uppercased()
        if text.hasPrefix("FY") { text.removeFirst(2) }
        let parts = text.split(separator: "Q")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]), let number = Int(parts[1]),
            (1...4).contains(number), (1900...9999).contains(year)
        else { return nil }
        switch kind {
        case .gregorian:
            let start = Self.addMonths(CivilDate(year: year, month: fiscalYearStartMonth, day: 1), (number - 1) * 3)
            let months = (0..<3).map { offset -> ReviewMonth in
                let first = Self.addMonths(start, offset)
                let range = DateRange(start: first, end: Self.addMonths(first, 1).adding(days: -1))
                return ReviewMonth(label: Self.monthLabel(first), range: range, lastYear: gregorianWholeLastYear(range))
            }
            let range = DateRange(start: start, end: Self.addMonths(start, 3).adding(days: -1))
            return FiscalQuarter(
                label: "\(year)Q\(number)", months: months, range: range, lastYear: gregorianWholeLastYear(range))
        case .retail(let retail):
            let wholeLastYear = { (range: DateRange, previous: DateRange) in
                self.lastYearRule == .date ? Self.lastYear(range) : previous
            }
            let months = (number * 3 - 2...number * 3).map { monthNumber -> ReviewMonth in
                let month = RetailCalendar.Month(year: year, number: monthNumber)
                let range = retail.range(of: month)
                let previous = retail.range(of: RetailCalendar.Month(year: year - 1, number: monthNumber))
                return ReviewMonth(label: month.label, range: range, lastYear: wholeLastYear(range, previous))
            }
            let range = retail.quarter(number, of: year)
            return FiscalQuarter(
                label: "FY\(year)Q\(number)", months: months, range: range,
                lastYear: wholeLastYear(range, retail.quarter(number, of: year - 1)))
        }
    }

    /// The goal months `range` touches (calendar months, or fiscal months for retail kinds),
    /// each with the part of `range` inside it and the whole month targets are prorated over.
    public func goalMonths(of range: DateRange) -> [GoalMonthPart] {
        switch kind {
        case .gregorian:
            return range.monthParts.map { label, part in
                let first = CivilDate(year: part.start.year, month: part.start.month, day: 1)
                return GoalMonthPart(
                    label: label, part: part,
                    month: DateRange(start: first, end: Self.addMonths(first, 1).adding(days: -1)))
            }
        case .retail(let retail):
            return retail.monthParts(of: range).map { month, part in
                GoalMonthPart(label: month.label, part: part, month: retail.range(of: month))
            }
        }
    }

    /// The months goals name in this calendar (`YYYY-MM`, or `FY2025-M04` for retail kinds).
    public var goalMonths: GoalMonths {
        switch kind {
        case .gregorian: return .calendar
        case .retail(let retail): return .fiscal(retail)
        }
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

    /// As many days as `elapsed` has, from the start of `previous`, capped at its end: a
    /// period-to-date's LY in a retail calendar (no restatement).
    static func sameDays(as elapsed: DateRange, from previous: DateRange) -> DateRange {
        DateRange(start: previous.start, end: min(previous.start.adding(days: elapsed.days - 1), previous.end))
    }

    /// A gregorian to-date range's LY: the same dates a year earlier, or 364 days earlier.
    private func gregorianLastYear(_ range: DateRange) -> DateRange {
        lastYearRule == .date ? Self.lastYear(range) : Self.weeksEarlier(range)
    }

    /// A gregorian review period's LY: the whole months a year earlier, or 364 days earlier.
    private func gregorianWholeLastYear(_ range: DateRange) -> DateRange {
        lastYearRule == .date ? Self.lastYearWholeMonths(range) : Self.weeksEarlier(range)
    }

    /// The same range 52 weeks (364 days) earlier: the same weekdays.
    static func weeksEarlier(_ range: DateRange) -> DateRange {
        DateRange(start: range.start.adding(days: -364), end: range.end.adding(days: -364))
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

    static func monthLabel(_ date: CivilDate) -> String { date.iso8601Month }
}

/// A fiscal quarter with its three months, for the review.
public struct FiscalQuarter: Sendable {
    /// `2025Q2`, or `FY2025Q2` in a retail calendar.
    public var label: String
    /// The months, labelled `YYYY-MM` (`FY2025-M04` in a retail calendar).
    public var months: [ReviewMonth]
    public var range: DateRange
    /// The days the quarter compares with.
    public var lastYear: DateRange
}

/// A month of the review: its label, its days, and the days it compares with.
public struct ReviewMonth: Sendable {
    public var label: String
    public var range: DateRange
    public var lastYear: DateRange
}

/// A to-date period: the days elapsed up to the as-of day, the whole period they belong to, and
/// the days they compare with (`nil` for a retail 53rd week, which has no LY).
public struct ToDatePeriod: Sendable, Equatable {
    /// `WTD`, `MTD`, `QTD` or `YTD`.
    public var label: String
    public var elapsed: DateRange
    public var full: DateRange
    public var lastYear: DateRange?
}

/// The part of a range inside one goal month (a calendar month, or a fiscal month in a retail
/// calendar): the month's label, the part, and the whole month a monthly target is prorated over.
public struct GoalMonthPart: Sendable, Equatable {
    /// `YYYY-MM` or `FY2025-M04`.
    public var label: String
    public var part: DateRange
    public var month: DateRange
}
