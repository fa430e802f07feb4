import Reports
import XCTest

final class SheetNamesTests: XCTestCase {
    func testForbiddenCharactersBecomeUnderscores() {
        XCTAssertEqual(SheetNames.sanitised("a[b]:c*d?e/f\\g"), "a_b__c_d_e_f_g")
    }

    func testNamesAreCutTo31CharactersAndTrimmed() {
        XCTAssertEqual(
            SheetNames.sanitised("'" + String(repeating: "x", count: 40) + "'"), String(repeating: "x", count: 31))
        XCTAssertEqual(SheetNames.sanitised("  'Region East'  "), "Region East")
        XCTAssertEqual(SheetNames.sanitised("''"), "Sheet")
        XCTAssertEqual(SheetNames.sanitised("tab\there"), "tabhere")
        XCTAssertEqual(SheetNames.sanitised(String(repeating: "é", count: 40)).unicodeScalars.count, 31)
        let combining = String(repeating: "e\u{301}", count: 20)
        XCTAssertEqual(SheetNames.sanitised(combining).unicodeScalars.count, 31, "counted as libxlsxwriter counts")
    }

    func testRepeatsGetNumbersWithinTheLimitIgnoringCase() {
        var names = SheetNames()
        let long = String(repeating: "y", count: 35)
        XCTAssertEqual(names.unique("Summary"), "Summary")
        XCTAssertEqual(names.unique("SUMMARY"), "SUMMARY (2)")
        XCTAssertEqual(names.unique("summary"), "summary (3)")
        XCTAssertEqual(names.unique(long), String(repeating: "y", count: 31))
        XCTAssertEqual(names.unique(long), String(repeating: "y", count: 27) + " (2)")
        XCTAssertEqual(names.unique("History"), "History (2)", "Excel reserves History")
        XCTAssertEqual(names.unique("a/b"), "a_b")
        XCTAssertEqual(names.unique("a:b"), "a_b (2)")
    }
}
