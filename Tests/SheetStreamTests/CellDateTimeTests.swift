import SheetStream
import XCTest

final class CellDateTimeTests: XCTestCase {
    func testSerials1900IncludingTheLeapYearBug() throws {
        let system = ExcelDateSystem.date1900
        XCTAssertEqual(system.dateTime(fromSerial: 1)?.iso8601, "1900-01-01")
        XCTAssertEqual(system.dateTime(fromSerial: 59)?.iso8601, "1900-02-28")
        XCTAssertEqual(system.dateTime(fromSerial: 60)?.iso8601, "1900-02-28", "the fictitious 1900-02-29")
        XCTAssertEqual(system.dateTime(fromSerial: 61)?.iso8601, "1900-03-01")
        XCTAssertEqual(system.dateTime(fromSerial: 45_853)?.iso8601, "2025-07-15")
        XCTAssertEqual(system.dateTime(fromSerial: 45_853.572916666664)?.iso8601, "2025-07-15T13:45:00")
        XCTAssertEqual(system.dateTime(fromSerial: 0.5)?.iso8601, "12:00:00")
        XCTAssertEqual(system.dateTime(fromSerial: 0.999_999_99)?.iso8601, "1900-01-01", "rounds up into serial 1")
        XCTAssertNil(system.dateTime(fromSerial: -1))
        XCTAssertNil(system.dateTime(fromSerial: 3_000_000))
        XCTAssertNil(system.dateTime(fromSerial: .nan))
    }

    func testSerials1904() {
        let system = ExcelDateSystem.date1904
        XCTAssertEqual(system.dateTime(fromSerial: 1)?.iso8601, "1904-01-02")
        XCTAssertEqual(system.dateTime(fromSerial: 44_391)?.iso8601, "2025-07-15")
    }

    func testSerialRoundTrip() throws {
        for (year, month, day) in [(1900, 1, 1), (1900, 2, 28), (1900, 3, 1), (2024, 2, 29), (2025, 7, 15)] {
            let value = try XCTUnwrap(CellDateTime(year: year, month: month, day: day, hour: 6))
            for system in [ExcelDateSystem.date1900, .date1904] where !(system == .date1904 && year < 1904) {
                XCTAssertEqual(system.dateTime(fromSerial: system.serial(of: value)), value, "\(year)-\(month)-\(day)")
            }
        }
    }

    func testISO8601CellText() {
        XCTAssertEqual(CellDateTime(iso8601: "2021-01-01")?.iso8601, "2021-01-01")
        XCTAssertEqual(CellDateTime(iso8601: "2021-01-01T10:10:10")?.iso8601, "2021-01-01T10:10:10")
        XCTAssertEqual(CellDateTime(iso8601: "2021-01-01T10:10:10.6Z")?.iso8601, "2021-01-01T10:10:11")
        XCTAssertEqual(CellDateTime(iso8601: "10:10:10")?.iso8601, "10:10:10")
        XCTAssertNil(CellDateTime(iso8601: "2021-02-30"))
        XCTAssertNil(CellDateTime(iso8601: "yesterday"))
    }
}
