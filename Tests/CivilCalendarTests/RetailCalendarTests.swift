import CivilCalendar
import XCTest

/// The NRF retail calendar (SPEC section 21) against the published fiscal years.
final class RetailCalendarTests: XCTestCase {
    private func day(_ text: String) -> CivilDate {
        CivilDate(iso8601: text) ?? CivilDate(year: 0, month: 1, day: 1)
    }

    /// FY2015–FY2030 as the NRF 4-5-4 calendar publishes them: first day, last day, weeks.
    static let nrfYears: [(year: Int, start: String, end: String, weeks: Int)] = [
        (2015, "2015-02-01", "2016-01-30", 52), (2016, "2016-01-31", "2017-01-28", 52),
        (2017, "2017-01-29", "2018-02-03", 53), (2018, "2018-02-04", "2019-02-02", 52),
        (2019, "2019-02-03", "2020-02-01", 52), (2020, "2020-02-02", "2021-01-30", 52),
        (2021, "2021-01-31", "2022-01-29", 52), (2022, "2022-01-30", "2023-01-28", 52),
        (2023, "2023-01-29", "2024-02-03", 53), (2024, "2024-02-04", "2025-02-01", 52),
        (2025, "2025-02-02", "2026-01-31", 52), (2026, "2026-02-01", "2027-01-30", 52),
        (2027, "2027-01-31", "2028-01-29", 52), (2028, "2028-01-30", "2029-02-03", 53),
        (2029, "2029-02-04", "2030-02-02", 52), (2030, "2030-02-03", "2031-02-01", 52),
    ]

    func testFiscalYears2015Through2030() {
        for expected in Self.nrfYears {
            XCTAssertEqual(RetailCalendar.yearStart(expected.year), day(expected.start), "FY\(expected.year) start")
            XCTAssertEqual(RetailCalendar.yearEnd(expected.year), day(expected.end), "FY\(expected.year) end")
            XCTAssertEqual(RetailCalendar.weeks(in: expected.year), expected.weeks, "FY\(expected.year) weeks")
            XCTAssertEqual(RetailCalendar.yearStart(expected.year).weekdayIndex, 6, "a fiscal year starts on a Sunday")
            XCTAssertEqual(RetailCalendar.fiscalYear(containing: day(expected.start)), expected.year)
            XCTAssertEqual(RetailCalendar.fiscalYear(containing: day(expected.end)), expected.year)
        }
        XCTAssertEqual(Self.nrfYears.filter { $0.weeks == 53 }.map(\.year), [2017, 2023, 2028])
    }

    /// Every fiscal month of every pattern: the months tile the year, start on Sundays, and
    /// have the pattern's weeks (the 53rd week in month 12).
    func testEveryMonthBoundaryOfEachPattern() {
        for pattern in RetailCalendar.Pattern.allCases {
            let calendar = RetailCalendar(pattern: pattern)
            for expected in Self.nrfYears {
                var next = day(expected.start)
                for number in 1...12 {
                    let month = RetailCalendar.Month(year: expected.year, number: number)
                    let range = calendar.range(of: month)
                    XCTAssertEqual(range.start, next, "\(pattern.rawValue) \(month.label) start")
                    var weeks = pattern.weeks[(number - 1) % 3]
                    if number == 12 { weeks += expected.weeks - 52 }
                    XCTAssertEqual(range.days, weeks * 7, "\(pattern.rawValue) \(month.label) weeks")
                    XCTAssertEqual(calendar.month(containing: range.start), month)
                    XCTAssertEqual(calendar.month(containing: range.end), month)
                    next = range.end.adding(days: 1)
                }
                XCTAssertEqual(next, day(expected.end).adding(days: 1), "\(pattern.rawValue) FY\(expected.year) tiles")
            }
        }
        // Spot checks against the published NRF 4-5-4 FY2025: M01 Feb 2–Mar 1, M05 Jun 1–Jul 5.
        let nrf = RetailCalendar()
        XCTAssertEqual(
            nrf.range(of: RetailCalendar.Month(year: 2025, number: 1)),
            DateRange(start: day("2025-02-02"), end: day("2025-03-01")))
        XCTAssertEqual(
            nrf.range(of: RetailCalendar.Month(year: 2025, number: 5)),
            DateRange(start: day("2025-06-01"), end: day("2025-07-05")))
        XCTAssertEqual(
            RetailCalendar(pattern: .p445).range(of: RetailCalendar.Month(year: 2025, number: 3)),
            DateRange(start: day("2025-03-30"), end: day("2025-05-03")))
        XCTAssertEqual(
            RetailCalendar(pattern: .p544).range(of: RetailCalendar.Month(year: 2025, number: 1)),
            DateRange(start: day("2025-02-02"), end: day("2025-03-08")))
    }

    func testA53WeekYearsFourthQuarterHas14Weeks() {
        let nrf = RetailCalendar()
        XCTAssertEqual(nrf.quarter(4, of: 2023), DateRange(start: day("2023-10-29"), end: day("2024-02-03")))
        XCTAssertEqual(nrf.quarter(4, of: 2023).days, 14 * 7)
        XCTAssertEqual(nrf.quarter(4, of: 2024).days, 13 * 7)
        XCTAssertEqual(RetailCalendar.week(containing: day("2024-02-03")).number, 53)
        XCTAssertNil(RetailCalendar.week(53, of: 2024))
    }

    func testMonthLabels() {
        XCTAssertEqual(RetailCalendar.Month(year: 2025, number: 4).label, "FY2025-M04")
        XCTAssertEqual(RetailCalendar.Month(label: "FY2025-M04"), RetailCalendar.Month(year: 2025, number: 4))
        XCTAssertEqual(RetailCalendar.Month(label: "fy2025-m12"), RetailCalendar.Month(year: 2025, number: 12))
        for bad in ["2025-04", "FY2025-M13", "FY2025-M00", "FY25-M04", "FY2025M04", "FY2025-M4"] {
            XCTAssertNil(RetailCalendar.Month(label: bad), bad)
        }
    }

    func testMonthPartsOfARange() {
        let parts = RetailCalendar().monthParts(of: DateRange(start: day("2025-05-20"), end: day("2025-06-10")))
        XCTAssertEqual(parts.map(\.month.label), ["FY2025-M04", "FY2025-M05"])
        XCTAssertEqual(parts.map(\.part.days), [12, 10])
    }
}
