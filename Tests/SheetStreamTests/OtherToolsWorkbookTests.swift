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
}
