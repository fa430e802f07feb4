import SheetStream
import TestSupport
import XCTest

final class XLSXWorkbookTests: XCTestCase {
    private func rows(_ fixture: String, sheet: String? = nil) throws -> [Row] {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture(fixture))
        let info = try XCTUnwrap(sheet.map { workbook.sheet(named: $0) } ?? workbook.sheets.first)
        var rows: [Row] = []
        try workbook.readRows(of: info) { rows.append($0) }
        return rows
    }

    private func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0)
        -> Cell
    {
        .date(CellDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!)
    }

    func testOpenpyxlWorkbookTypesAndSheetStates() throws {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("openpyxl_sales_audit.xlsx"))
        XCTAssertEqual(workbook.sheets.map(\.name), ["Sales Audit", "Hidden Notes"])
        XCTAssertEqual(workbook.sheets.map(\.state), [.visible, .hidden])
        XCTAssertEqual(workbook.dateSystem, .date1900)
        // Rows come as stored: openpyxl writes the blank third row as an empty <row>.
        let rows = try rows("openpyxl_sales_audit.xlsx")
        XCTAssertEqual(rows.map(\.number), Array(1...9))
        XCTAssertEqual(rows[0].cells, [.string("Sales Audit Report")])
        XCTAssertTrue(rows[2].isBlank)
        XCTAssertEqual(
            rows[4].cells,
            [
                .string("08"), date(2025, 7, 14), .number(1234.5), .number(10), .number(25), .number(0.452),
                .number(0.51),
            ])
        XCTAssertEqual(rows[5][1], date(2025, 7, 15, 13, 45))
        XCTAssertEqual(rows[6][2], .string("$1,234.56"))
        // openpyxl stores no cached value for formulas: the cell is empty, not the formula text.
        XCTAssertEqual(rows[7].cells[0...2], [.string("Total"), .empty, .empty])
        XCTAssertEqual(rows[8][0], .bool(true))
        XCTAssertEqual(rows[8][1], .bool(false))
        // openpyxl writes `_x000D_` unescaped; OOXML readers (Excel included) decode it.
        XCTAssertEqual(rows[8][4], .string("\r literal"))
        XCTAssertEqual(rows[8][5], .string("tab\there"))
    }

    func testXlsxwriterSharedAndConstantMemoryInlineStringsReadAlike() throws {
        let shared = try rows("xlsxwriter_shared.xlsx")
        let inline = try rows("xlsxwriter_constant_memory.xlsx")
        XCTAssertEqual(shared.map(\.cells), inline.map(\.cells))
        XCTAssertEqual(shared.map(\.number), [1, 2, 3, 5])
        XCTAssertEqual(
            shared[1].cells,
            [
                .string("Hannoush Jewelers - Natick"), date(2024, 2, 29),
                .date(CellDateTime(daysSinceEpoch: -25_569, secondsOfDay: 9 * 3600 + 30 * 60 + 15, isTimeOnly: true)),
                .number(1.5),  // `[h]:mm` is a duration, not a date
                .number(0.875), .string("  spaced  "),
            ])
        // A formula cell gives its cached value; xlsxwriter writes 1900-01-01 as serial 0 (a time of day).
        XCTAssertEqual(shared[2][3], .number(2))
        XCTAssertEqual(shared[2][4], .bool(true))
        XCTAssertEqual(shared[3].cells, [.string("after gap")])
    }

    func testDate1904WorkbookShiftsSerials() throws {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("xlsxwriter_1904.xlsx"))
        XCTAssertEqual(workbook.dateSystem, .date1904)
        let rows = try rows("xlsxwriter_1904.xlsx")
        XCTAssertEqual(rows[1][1], date(2024, 2, 29))
        // 1900-01-01 lies before the 1904 epoch: its serial is negative, so it stays a number.
        XCTAssertEqual(rows[2][1], .number(-1461))
    }

    func testLibreOfficeConversion() throws {
        let rows = try rows("libreoffice_credit.xlsx")
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[1].cells, [.number(8), date(2025, 7, 14), .string("A. Person")])
    }

    func testHostilePartsFailWithoutExpansion() {
        for fixture in ["billion_laughs.xlsx", "external_entity.xlsx"] {
            XCTAssertThrowsError(try rows(fixture), fixture) { error in
                guard let xmlError = error as? XMLError else { return XCTFail("\(error)") }
                XCTAssertEqual(xmlError.part, "xl/sharedStrings.xml")
                XCTAssertTrue(xmlError.message.contains("DOCTYPE"), xmlError.message)
            }
        }
    }

    func testSharedStringIndexOutOfRangeNamesTheCell() {
        XCTAssertThrowsError(try rows("shared_string_out_of_range.xlsx")) { error in
            XCTAssertEqual(
                "\(error)",
                "\(TestPaths.fixture("shared_string_out_of_range.xlsx"))!S row 1, column A: shared string index 5 is out of range (table has 1)"
            )
        }
    }

    func testMalformedSheetXMLIsAnErrorWithItsPosition() {
        XCTAssertThrowsError(try rows("malformed_sheet.xlsx")) { error in
            let xmlError = error as? XMLError
            XCTAssertEqual(xmlError?.part, "xl/worksheets/sheet1.xml")
            XCTAssertEqual(xmlError?.byteOffset, 171)
            XCTAssertEqual(xmlError?.message, "the end tag </rowx> does not match: <row> is open")
        }
    }

    func testErrorThrownByTheConsumerStopsTheReadAndIsRethrown() throws {
        struct Enough: Error {}
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("openpyxl_sales_audit.xlsx"))
        var seen = 0
        XCTAssertThrowsError(
            try workbook.readRows(of: workbook.sheets[0]) { _ in
                seen += 1
                if seen == 2 { throw Enough() }
            }
        ) { error in XCTAssertTrue(error is Enough) }
        XCTAssertEqual(seen, 2)
    }

    func testMissingSheetPartIsAnError() throws {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("minimal_deflate.xlsx"))
        let ghost = SheetInfo(
            name: "Ghost", index: 9, state: .visible, partName: "xl/worksheets/none.xml", kind: "worksheet")
        XCTAssertThrowsError(try workbook.readRows(of: ghost) { _ in }) { error in
            XCTAssertTrue("\(error)".contains("Ghost"))
        }
    }
}
