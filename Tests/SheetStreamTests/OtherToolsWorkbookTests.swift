import Foundation
import SheetStream
import TestSupport
import XCTest

/// Issue 20: workbooks written by other tools (and fuzzers) that the reader once misread.
final class OtherToolsWorkbookTests: XCTestCase {
    private func rows(_ fixture: String, sheet: String? = nil) throws -> [Row] {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture(fixture))
        let info = try XCTUnwrap(sheet.map { workbook.sheet(named: $0) } ?? workbook.sheets.first)
        var rows: [Row] = []
        try workbook.readRows(of: info) { rows.append($0) }
        return rows
    }

    /// Excel escapes only a lowercase `_xHHHH_` and writes `_X0041_` literally; the hex digits may
    /// be either case. Shared strings, inline strings and formula strings decode alike.
    func testCapitalXEscapeIsLiteralText() throws {
        let expected = Cell.string("a_X0041_b A J _X000D_")
        let row = try XCTUnwrap(rows("escape_capital_x.xlsx").first)
        XCTAssertEqual(row.cells, [expected, expected, expected])
    }

    /// A fuzzed `r="231999999999940"` once made `dump` write blank lines without end; row and
    /// cell references outside 1…1048576 and A…XFD, and rows out of order, are refused by place.
    func testRowAndCellReferencesOutOfRangeAreRefused() throws {
        let fixture = "row_and_cell_references_out_of_range.xlsx"
        let cases = [
            ("Fuzzed row", "!Fuzzed row: row r=\"231999999999940\" (after row 1): expected a row number 1…1048576"),
            ("Row 0", "!Row 0: row r=\"0\" (after row 0): expected a row number 1…1048576"),
            (
                "Past last row",
                "!Past last row: a row without a number after row 1048576 lies past the last row, 1048576"
            ),
            ("Row not a number", "!Row not a number: row r=\"1x\" (after row 0): expected a row number 1…1048576"),
            (
                "Cell A0",
                "!Cell A0 row 1: cell r=\"A0\": expected column letters A…XFD then a row number 1…1048576, like B12"
            ),
            ("Cell past XFD", "!Cell past XFD row 1: cell r=\"XFE1\": expected column letters A…XFD"),
            ("Cell past last row", "!Cell past last row row 1: cell r=\"B1048577\": expected column letters A…XFD"),
            ("Decreasing rows", "!Decreasing rows: row r=\"3\" comes after row 5: expected rows in ascending order"),
        ]
        for (sheet, message) in cases {
            var seen: [Int] = []
            let workbook = try XLSXWorkbook(path: TestPaths.fixture(fixture))
            XCTAssertThrowsError(
                try workbook.readRows(of: try XCTUnwrap(workbook.sheet(named: sheet))) { seen.append($0.number) }, sheet
            ) { error in
                XCTAssertTrue(error is XLSXError, "\(error)")
                XCTAssertTrue("\(error)".contains(fixture + message), "\(error)")
            }
            XCTAssertLessThanOrEqual(seen.count, 1, sheet)
        }
        let last = try XCTUnwrap(rows(fixture, sheet: "Last cells").first)
        XCTAssertEqual(last.number, 1_048_576)
        XCTAssertEqual(last.cells.count, 16_384)
        XCTAssertEqual(last.cells.last, .number(1))
    }
}
