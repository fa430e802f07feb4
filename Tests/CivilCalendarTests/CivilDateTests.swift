import CivilCalendar
import XCTest

final class CivilDateTests: XCTestCase {
    func testCivilDateArithmetic() {
        XCTAssertEqual(CivilDate(daysSinceEpoch: 0), CivilDate(year: 1970, month: 1, day: 1))
        XCTAssertEqual(CivilDate.daysSinceEpoch(year: 2000, month: 3, day: 1), 11_017)
        XCTAssertEqual(CivilDate(daysSinceEpoch: -25_569).iso8601, "1899-12-30")
        XCTAssertEqual(CivilDate(daysSinceEpoch: -25_569).iso8601Month, "1899-12")
        XCTAssertEqual(CivilDate(year: 999, month: 3, day: 9).iso8601Month, "0999-03")
        XCTAssertEqual(CivilDate(year: 2025, month: 11, day: 30).iso8601, "2025-11-30")
        XCTAssertTrue(CivilDate.isLeap(2000))
        XCTAssertFalse(CivilDate.isLeap(1900))
        XCTAssertEqual(CivilDate.daysIn(month: 2, year: 2024), 29)
    }

    func testMonthParts() {
        let parts = DateRange(
            start: CivilDate(year: 2025, month: 1, day: 30), end: CivilDate(year: 2025, month: 3, day: 2)
        ).monthParts
        XCTAssertEqual(parts.map(\.month), ["2025-01", "2025-02", "2025-03"])
        XCTAssertEqual(parts.map(\.part.days), [2, 28, 2])
    }
}
