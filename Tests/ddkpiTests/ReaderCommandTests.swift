import Foundation
import SheetFixtures
import TestSupport
import XCTest

/// End-to-end checks of `ddkpi sheets` and `ddkpi dump`, run as the built binary.
final class ReaderCommandTests: XCTestCase {
    func testSheetsListsIndexNameAndState() throws {
        let result = try CommandRunner.ddkpi(["sheets", TestPaths.fixture("openpyxl_sales_audit.xlsx")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "0\tSales Audit\tvisible\n1\tHidden Notes\thidden\n")
    }

    func testDumpCSVFollowsTheSpecFormat() throws {
        let result = try CommandRunner.ddkpi(["dump", TestPaths.fixture("xlsxwriter_shared.xlsx")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            Location,Call Date,Start Time,Talk,Answered %,Notes
            Hannoush Jewelers - Natick,2024-02-29,09:30:15,1.5,0.875,  spaced  \n08,00:00:00,,2,TRUE

            after gap

            """)
    }

    /// A long shared string referenced many times: `--max-cell-chars` bounds what `dump` writes.
    func testDumpCutsLongTextCells() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("amplified.xlsx").path
        let writer = try XLSXWriter(path: path)
        let long = String(repeating: "é", count: 100_000)
        for _ in 0..<50 { try writer.writeRow([.string(long), .number(1)]) }
        try writer.close()
        let full = try CommandRunner.ddkpi(["dump", path])
        XCTAssertEqual(full.stdout.count, 50 * (100_000 + 3))
        let cut = try CommandRunner.ddkpi(["dump", path, "--max-cell-chars", "4"])
        XCTAssertEqual(cut.status, 0, cut.stderr)
        XCTAssertEqual(cut.stdout, String(repeating: "éééé,1\n", count: 50))
        let json = try CommandRunner.ddkpi(["dump", path, "--max-cell-chars", "2", "--format", "json"])
        XCTAssertTrue(json.stdout.contains("{\"row\":1,\"cells\":[\"éé\",1]}"), json.stdout)
        XCTAssertEqual(try CommandRunner.ddkpi(["dump", path, "--max-cell-chars", "0"]).status, 2)
    }

    func testDumpJSONOfANamedSheet() throws {
        let result = try CommandRunner.ddkpi([
            "dump", TestPaths.fixture("openpyxl_sales_audit.xlsx"), "--sheet", "Hidden Notes", "--format", "json",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(
            result.stdout.hasSuffix("\"sheet\":\"Hidden Notes\",\"rows\":[\n{\"row\":1,\"cells\":[\"note\"]}\n]}\n"),
            result.stdout)
    }

    func testDumpReadsCSVToo() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TestPaths.write(Array("Store;Net Sales\n08;\"1,5\"\n".utf8), named: "feed.csv", in: directory)
        let result = try CommandRunner.ddkpi(["dump", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Store,Net Sales\n08,\"1,5\"\n")
    }

    func testBadInputExitsOneWithTheFileAndPartNamed() throws {
        let cases = [
            ("crc_mismatch.xlsx", "xl/worksheets/sheet1.xml: CRC-32 mismatch"),
            ("billion_laughs.xlsx", "xl/sharedStrings.xml line 1: a DOCTYPE declaration is not allowed"),
            ("not_a_zip.xlsx", "not a zip container"),
            ("shared_string_out_of_range.xlsx", "!S row 1, column A: shared string index 5 is out of range"),
            (
                "duplicate_part_name_case.xlsx",
                "entries \"xl/worksheets/sheet1.xml\" and \"XL/Worksheets/Sheet1.xml\" name the same part"
            ),
        ]
        for (fixture, message) in cases {
            let result = try CommandRunner.ddkpi(["dump", TestPaths.fixture(fixture)])
            XCTAssertEqual(result.status, 1, fixture)
            XCTAssertTrue(result.stderr.contains(fixture), result.stderr)
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
    }

    /// Issue 20: a fuzzed `r="231999999999940"` once made `dump` write blank lines without end.
    func testDumpRefusesARowNumberPastTheLastRow() throws {
        let fixture = "row_and_cell_references_out_of_range.xlsx"
        let result = try CommandRunner.ddkpi(["dump", TestPaths.fixture(fixture), "--sheet", "Fuzzed row"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stdout, "1\n")
        XCTAssertTrue(
            result.stderr.contains(
                "\(fixture)!Fuzzed row: row r=\"231999999999940\" (after row 1): expected a row number 1…1048576"),
            result.stderr)
    }

    /// Issue 20: an empty `<sheets/>` printed `has no sheet named ""` and usage text, though no
    /// `--sheet` was given; it is an input failure of the file (exit 1, as for a corrupt file).
    func testDumpOfAWorkbookWithNoWorksheetsSaysSo() throws {
        for (fixture, sheets) in [
            ("no_worksheets.xlsx", ""), ("chartsheet_only.xlsx", "; its sheets: Chart1 (chart sheet)"),
        ] {
            let path = TestPaths.fixture(fixture)
            let result = try CommandRunner.ddkpi(["dump", path])
            XCTAssertEqual(result.status, 1, fixture)
            XCTAssertEqual(result.stdout, "", fixture)
            XCTAssertEqual(result.stderr, "ddkpi: error: \(path): the workbook has no worksheets\(sheets)\n")
        }
    }

    /// Issue 20: a chart sheet listed first made `dump` print an empty sheet without a word; it
    /// dumps the first worksheet, refuses a chart sheet by name, and `sheets` marks it.
    func testDumpSkipsAChartSheetListedFirst() throws {
        let path = TestPaths.fixture("chartsheet_first.xlsx")
        let result = try CommandRunner.ddkpi(["dump", path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, "Code,Name,Region\n08,Natick,East\n")
        let chart = try CommandRunner.ddkpi(["dump", path, "--sheet", "chart1"])
        XCTAssertEqual(chart.status, 2)
        XCTAssertEqual(chart.stdout, "")
        XCTAssertTrue(
            chart.stderr.contains(
                "\(path): sheet \"Chart1\" is a chart sheet, not a worksheet: it has no rows to dump; its worksheets: Data"
            ),
            chart.stderr)
        let sheets = try CommandRunner.ddkpi(["sheets", path])
        XCTAssertEqual(sheets.status, 0, sheets.stderr)
        XCTAssertEqual(sheets.stdout, "0\tChart1\tvisible\tchart sheet\n1\tData\tvisible\n")
    }

    func testUsageErrorsExitTwo() throws {
        let unknownSheet = try CommandRunner.ddkpi([
            "dump", TestPaths.fixture("minimal_deflate.xlsx"), "--sheet", "Nope",
        ])
        XCTAssertEqual(unknownSheet.status, 2)
        XCTAssertTrue(unknownSheet.stderr.contains("has no sheet named \"Nope\"; its sheets: S"), unknownSheet.stderr)
        XCTAssertEqual(try CommandRunner.ddkpi(["dump"]).status, 2)
        XCTAssertEqual(try CommandRunner.ddkpi(["dump", "x.xlsx", "--format", "xml"]).status, 2)
        XCTAssertEqual(try CommandRunner.ddkpi(["frobnicate"]).status, 2)
        XCTAssertEqual(try CommandRunner.ddkpi(["--help"]).status, 0)
    }
}
