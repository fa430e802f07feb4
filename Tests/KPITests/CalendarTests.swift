import CivilCalendar
import XCTest

@testable import KPI

final class CalendarTests: XCTestCase {
    private func date(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }
    private func range(_ a: CivilDate, _ b: CivilDate) -> DateRange { DateRange(start: a, end: b) }

    func testToDatePeriodsWithMondayWeeksAndJanuaryYears() {
        let periods = FiscalCalendar().toDate(date(2025, 7, 15))
        XCTAssertEqual(periods.map(\.label), ["WTD", "MTD", "QTD", "YTD"])
        XCTAssertEqual(
            periods.map(\.range),
            [
                range(date(2025, 7, 14), date(2025, 7, 15)), range(date(2025, 7, 1), date(2025, 7, 15)),
                range(date(2025, 7, 1), date(2025, 7, 15)), range(date(2025, 1, 1), date(2025, 7, 15)),
            ])
    }

    func testWeekBoundariesAndSundayWeeks() {
        XCTAssertEqual(FiscalCalendar().toDate(date(2025, 7, 14))[0].range, range(date(2025, 7, 14), date(2025, 7, 14)))
        XCTAssertEqual(FiscalCalendar().toDate(date(2025, 7, 20))[0].range, range(date(2025, 7, 14), date(2025, 7, 20)))
        XCTAssertEqual(
            FiscalCalendar(weekStart: 6).toDate(date(2025, 7, 15))[0].range, range(date(2025, 7, 13), date(2025, 7, 15))
        )
        XCTAssertEqual(
            FiscalCalendar().toDate(date(2025, 1, 1))[0].range, range(date(2024, 12, 30), date(2025, 1, 1)),
            "weeks cross years")
    }

    func testFiscalYearStartingInApril() {
        let calendar = FiscalCalendar(fiscalYearStartMonth: 4)
        let periods = calendar.toDate(date(2025, 2, 10))
        XCTAssertEqual(periods[2].range.start, date(2025, 1, 1), "Q4 of FY2024 is Jan–Mar")
        XCTAssertEqual(periods[3].range.start, date(2024, 4, 1))
        XCTAssertEqual(calendar.quarter(named: "2025Q1")?.range, range(date(2025, 4, 1), date(2025, 6, 30)))
        XCTAssertEqual(calendar.quarter(named: "2024Q4")?.months.map(\.label), ["2025-01", "2025-02", "2025-03"])
    }

    func testQuarterNames() {
        let quarter = FiscalCalendar().quarter(named: "2025Q2")
        XCTAssertEqual(quarter?.months.map(\.label), ["2025-04", "2025-05", "2025-06"])
        XCTAssertEqual(quarter?.months.map(\.range.end), [date(2025, 4, 30), date(2025, 5, 31), date(2025, 6, 30)])
        for bad in ["2025Q5", "2025Q0", "25Q1", "2025-Q1", "Q1", "2025"] {
            XCTAssertNil(FiscalCalendar().quarter(named: bad), bad)
        }
    }

    func testLastYearPeriods() {
        XCTAssertEqual(
            FiscalCalendar.lastYear(range(date(2024, 2, 1), date(2024, 2, 29))),
            range(date(2023, 2, 1), date(2023, 2, 28)))
        XCTAssertEqual(
            FiscalCalendar.lastYear(range(date(2025, 7, 14), date(2025, 7, 15))),
            range(date(2024, 7, 14), date(2024, 7, 15)))
        XCTAssertEqual(
            FiscalCalendar.lastYearWholeMonths(range(date(2025, 2, 1), date(2025, 2, 28))),
            range(date(2024, 2, 1), date(2024, 2, 29)),
            "the review's LY is the whole month a year earlier")
    }
}
