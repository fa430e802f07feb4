import CivilCalendar
import Feeds
import XCTest

@testable import KPI

/// Periods and LY under a retail calendar and with weekday LY (SPEC section 21).
final class RetailPeriodTests: XCTestCase {
    private let nrf = FiscalCalendar(kind: .retail(RetailCalendar()))

    private func day(_ text: String) -> CivilDate { CivilDate(iso8601: text) ?? CivilDate(year: 0, month: 1, day: 1) }
    private func range(_ start: String, _ end: String) -> DateRange { DateRange(start: day(start), end: day(end)) }

    private func periods(_ calendar: FiscalCalendar, _ asOf: String) -> [String: ToDatePeriod] {
        Dictionary(uniqueKeysWithValues: calendar.toDatePeriods(day(asOf)).map { ($0.label, $0) })
    }

    func testToDatePeriodsAreFiscalWithSameNumberedLY() {
        let p = periods(nrf, "2025-06-17")  // a Tuesday in FY2025-M05, week 20
        XCTAssertEqual(p["WTD"]?.elapsed, range("2025-06-15", "2025-06-17"))
        XCTAssertEqual(p["WTD"]?.lastYear, range("2024-06-16", "2024-06-18"), "Sunday–Tuesday a year earlier")
        XCTAssertEqual(p["MTD"]?.elapsed, range("2025-06-01", "2025-06-17"))
        XCTAssertEqual(p["MTD"]?.full, range("2025-06-01", "2025-07-05"))
        XCTAssertEqual(p["MTD"]?.lastYear, range("2024-06-02", "2024-06-18"))
        XCTAssertEqual(p["QTD"]?.elapsed, range("2025-05-04", "2025-06-17"))
        XCTAssertEqual(p["QTD"]?.lastYear, range("2024-05-05", "2024-06-18"))
        XCTAssertEqual(p["YTD"]?.elapsed, range("2025-02-02", "2025-06-17"))
        XCTAssertEqual(p["YTD"]?.lastYear, range("2024-02-04", "2024-06-18"))
        for period in p.values {
            XCTAssertEqual(period.lastYear?.start.weekdayIndex, period.elapsed.start.weekdayIndex, "weekday-aligned")
            XCTAssertEqual(period.lastYear?.days, period.elapsed.days)
        }
    }

    /// The year after a 53-week year: FY2024's periods compare with FY2023's same-numbered
    /// periods, counted from their starts (no restatement).
    func testLYInTheYearAfterA53WeekYear() {
        let p = periods(nrf, "2024-03-05")
        XCTAssertEqual(p["YTD"]?.elapsed, range("2024-02-04", "2024-03-05"))
        XCTAssertEqual(p["YTD"]?.lastYear, range("2023-01-29", "2023-02-28"))
        XCTAssertEqual(p["MTD"]?.lastYear, range("2023-02-26", "2023-02-28"), "FY2023-M02 from its start")
        XCTAssertEqual(p["WTD"]?.lastYear, range("2023-02-26", "2023-02-28"))
    }

    /// On a period's last day the period is still to date; LY is capped at the LY period's end.
    func testPeriodsLastDayAndTheCapAtTheLYPeriodsEnd() {
        // 2024-02-03 is the last day of FY2023 (53 weeks): its YTD and M12 are longer than FY2022's.
        let p = periods(nrf, "2024-02-03")
        XCTAssertEqual(p["YTD"]?.elapsed, range("2023-01-29", "2024-02-03"))
        XCTAssertEqual(p["YTD"]?.lastYear, range("2022-01-30", "2023-01-28"), "capped at FY2022's end")
        XCTAssertEqual(p["MTD"]?.elapsed, range("2023-12-31", "2024-02-03"), "M12 has five weeks")
        XCTAssertEqual(p["MTD"]?.lastYear, range("2023-01-01", "2023-01-28"), "FY2022-M12 whole, four weeks")
        XCTAssertEqual(p["QTD"]?.elapsed.days, 98)
        XCTAssertEqual(p["QTD"]?.lastYear?.days, 91)
        XCTAssertNil(p["WTD"]?.lastYear, "a 53rd week has no LY")
        // The last day of an ordinary month: the whole month, against the whole LY month.
        let june = periods(nrf, "2025-07-05")
        XCTAssertEqual(june["MTD"]?.elapsed, range("2025-06-01", "2025-07-05"))
        XCTAssertEqual(june["MTD"]?.lastYear, range("2024-06-02", "2024-07-06"))
    }

    func testWTDAcrossTheYearEnd() {
        // FY2024 ends Saturday 2025-02-01; the week of 2025-01-29 is FY2024's week 52.
        let end = periods(nrf, "2025-01-29")
        XCTAssertEqual(end["WTD"]?.elapsed, range("2025-01-26", "2025-01-29"))
        XCTAssertEqual(end["WTD"]?.lastYear, range("2024-01-21", "2024-01-24"), "FY2023's week 52")
        XCTAssertEqual(end["YTD"]?.elapsed.start, day("2024-02-04"))
        let start = periods(nrf, "2025-02-03")
        XCTAssertEqual(start["WTD"]?.elapsed, range("2025-02-02", "2025-02-03"))
        XCTAssertEqual(start["WTD"]?.lastYear, range("2024-02-04", "2024-02-05"))
        XCTAssertEqual(start["YTD"]?.elapsed, range("2025-02-02", "2025-02-03"))
    }

    func testReviewQuartersAreFiscalWithWholeSameNumberedLY() throws {
        let quarter = try XCTUnwrap(nrf.quarter(named: "2025Q2"))
        XCTAssertEqual(quarter.label, "FY2025Q2")
        XCTAssertEqual(quarter.range, range("2025-05-04", "2025-08-02"))
        XCTAssertEqual(quarter.lastYear, range("2024-05-05", "2024-08-03"))
        XCTAssertEqual(quarter.months.map(\.label), ["FY2025-M04", "FY2025-M05", "FY2025-M06"])
        XCTAssertEqual(quarter.months.map(\.lastYear.start), [day("2024-05-05"), day("2024-06-02"), day("2024-07-07")])
        XCTAssertEqual(try XCTUnwrap(nrf.quarter(named: "FY2025Q2")).range, quarter.range)
        // Q4 of the year after a 53-week year compares with the 14-week Q4 whole.
        let q4 = try XCTUnwrap(nrf.quarter(named: "2024Q4"))
        XCTAssertEqual(q4.lastYear, range("2023-10-29", "2024-02-03"))
    }

    func testGregorianWeekdayLYIs364DaysEarlier() throws {
        let calendar = FiscalCalendar(lastYearRule: .weekday)
        let p = periods(calendar, "2025-06-17")
        XCTAssertEqual(p["MTD"]?.lastYear, range("2024-06-02", "2024-06-18"))
        XCTAssertEqual(p["WTD"]?.lastYear?.start.weekdayIndex, p["WTD"]?.elapsed.start.weekdayIndex)
        let quarter = try XCTUnwrap(calendar.quarter(named: "2025Q2"))
        XCTAssertEqual(quarter.lastYear, range("2024-04-02", "2024-07-01"))
        // The default stays the dates a year earlier.
        XCTAssertEqual(periods(FiscalCalendar(), "2025-06-17")["MTD"]?.lastYear, range("2024-06-01", "2024-06-17"))
    }

    func testRetailKindWithDateLY() {
        let calendar = FiscalCalendar(kind: .retail(RetailCalendar()), lastYearRule: .date)
        XCTAssertEqual(periods(calendar, "2025-06-17")["MTD"]?.lastYear, range("2024-06-01", "2024-06-17"))
    }

    func testGoalMonthsFollowTheCalendar() {
        let parts = nrf.goalMonths(of: range("2025-05-25", "2025-06-03"))
        XCTAssertEqual(parts.map(\.label), ["FY2025-M04", "FY2025-M05"])
        XCTAssertEqual(parts.map(\.month), [range("2025-05-04", "2025-05-31"), range("2025-06-01", "2025-07-05")])
        XCTAssertEqual(GoalMonths.fiscal(RetailCalendar()).range(of: "FY2025-M05"), range("2025-06-01", "2025-07-05"))
        XCTAssertNil(GoalMonths.fiscal(RetailCalendar()).range(of: "2025-06"), "a calendar month is not a fiscal one")
        XCTAssertNil(GoalMonths.calendar.range(of: "FY2025-M05"))
        XCTAssertEqual(FiscalCalendar().goalMonths(of: range("2025-06-10", "2025-06-20")).map(\.month.days), [30])
    }
}
