import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// Issue 42 §3: values and containers from foreign files that were read silently wrong — a date
/// past 9999-12-31 printed with a five-digit year, a number past a double's range read as
/// infinity, a zip entry whose local header names another part than the central directory.
final class ForeignWorkbookEdgeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    private static let namespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

    /// A one-sheet workbook, sheet "S", whose `sheetData` holds `rows`, with a date style (1), in
    /// the 1904 date system when `date1904`.
    private func workbook(_ rows: String, date1904: Bool = false) throws -> String {
        let path = folder.appendingPathComponent("sheet.xlsx").path
        let zip = try ZipWriter(path: path)
        let relationships = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        let entries = [
            (
                "[Content_Types].xml",
                #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#
            ),
            (
                "_rels/.rels",
                #"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\#(relationships)/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
            (
                "xl/workbook.xml",
                #"<?xml version="1.0"?><workbook xmlns="\#(Self.namespace)" xmlns:r="\#(relationships)"><workbookPr date1904="\#(date1904 ? 1 : 0)"/><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#
            ),
            (
                "xl/_rels/workbook.xml.rels",
                #"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="\#(relationships)/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId3" Type="\#(relationships)/styles" Target="styles.xml"/></Relationships>"#
            ),
            (
                "xl/styles.xml",
                #"<?xml version="1.0"?><styleSheet xmlns="\#(Self.namespace)"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>"#
            ),
            (
                "xl/worksheets/sheet1.xml",
                #"<?xml version="1.0"?><worksheet xmlns="\#(Self.namespace)"><sheetData>\#(rows)</sheetData></worksheet>"#
            ),
        ]
        for (name, text) in entries {
            try zip.beginEntry(name)
            try zip.write(text)
            try zip.endEntry()
        }
        try zip.finish()
        return path
    }

    /// The cells of each row, or the error that stopped the read, read through `parser`; and the
    /// workbook's warnings after the read (the path written `F`).
    private func read(_ path: String, _ parser: XMLPartReader.BulkParser) throws -> (rows: String, warnings: [String]) {
        let workbook = try XLSXWorkbook(path: path)
        workbook.worksheetParser = parser
        var rows: [String] = []
        do {
            try workbook.readRows(of: workbook.sheets[0]) { row in
                rows.append("\(row.number): " + row.cells.map(Self.text).joined(separator: " | "))
            }
        } catch {
            rows.append("error: \(error)")
        }
        return (
            rows.joined(separator: "\n").replacingOccurrences(of: path, with: "F"),
            workbook.warnings.map { $0.replacingOccurrences(of: path, with: "F") }
        )
    }

    private static func text(_ cell: Cell) -> String {
        switch cell {
        case .date(let value): return "date \(value.iso8601)"
        case .number(let value): return "number \(value)"
        default: return "\(cell)"
        }
    }

    /// §3a: a date-formatted serial whose day, once rounded to the second, lies past 9999-12-31
    /// (Excel shows `#####`) is kept as the number it is, with a warning naming the cell; the
    /// last day itself still reads as a date, in both date systems.
    func testADateFormattedSerialPastTheLastDayIsANumberWithAWarning() throws {
        let cells =
            #"<row r="1"><c r="A1" s="1"><v>2958465.99999</v></c><c r="B1" s="1"><v>2958465.9999999</v></c>"#
            + #"<c r="C1" s="1"><v>2958466</v></c><c r="D1" s="1"><v>-1</v></c></row>"#
        let path1900 = try workbook(cells)
        for parser in [XMLPartReader.BulkParser.scanner, .libxml2] {
            let read1900 = try read(path1900, parser)
            XCTAssertEqual(
                read1900.rows,
                "1: date 9999-12-31T23:59:59 | number 2958465.9999999 | number 2958466.0 | number -1.0")
            XCTAssertEqual(
                read1900.warnings,
                [
                    "F!S row 1, column B: serial 2958465.9999999 with a date format lies past 9999-12-31 (Excel shows #####): read as a number",
                    "F!S row 1, column C: serial 2958466 with a date format lies past 9999-12-31 (Excel shows #####): read as a number",
                ])
        }

        let path1904 = try workbook(
            #"<row r="1"><c r="A1" s="1"><v>2957003</v></c><c r="B1" s="1"><v>2957004</v></c>"#
                + #"<c r="C1" s="1"><v>2958465</v></c></row>"#, date1904: true)
        let read1904 = try read(path1904, .scanner)
        XCTAssertEqual(read1904.rows, "1: date 9999-12-31 | number 2957004.0 | number 2958465.0")
        XCTAssertEqual(read1904.warnings.count, 2)
        XCTAssertEqual(
            read1904.warnings.last,
            "F!S row 1, column C: serial 2958465 with a date format lies past 9999-12-31 (Excel shows #####): read as a number"
        )

        XCTAssertNil(ExcelDateSystem.date1900.dateTime(fromSerial: 2_958_465.999_999_9))
        XCTAssertNil(ExcelDateSystem.date1904.dateTime(fromSerial: 2_958_465))
        XCTAssertEqual(ExcelDateSystem.date1904.dateTime(fromSerial: 2_957_003)?.iso8601, "9999-12-31")
        XCTAssertNil(CellDateTime(iso8601: "9999-12-31T23:59:59.6"), "rounds to the midnight after the last day")
        XCTAssertEqual(CellDateTime(iso8601: "9999-12-30T23:59:59.6")?.iso8601, "9999-12-31")
    }

    /// §3b: `1e309` parses to infinity; the read stops with an error naming its cell rather than
    /// giving `inf` (or JSON's `null`) further down.
    func testANumberPastADoublesRangeIsAnErrorNamingItsCell() throws {
        for (value, column) in [("1e309", "B"), ("-1e309", "B"), ("  1E+400 ", "B")] {
            let path = try workbook(
                #"<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>1e308</v></c>"#
                    + #"<c r="\#(column)2"><v>\#(value)</v></c></row>"#)
            for parser in [XMLPartReader.BulkParser.scanner, .libxml2] {
                XCTAssertEqual(
                    try read(path, parser).rows,
                    "1: number 1.0\nerror: F!S row 2, column B: \"\(value)\" is out of a number's range (expected at most ±1.7976931348623157e308)",
                    "\(value) \(parser)")
            }
        }
    }

    /// §3c: a zip whose local header names another part than its central-directory entry is
    /// refused when opened, as two entries naming one part are: a reader that walks the local
    /// headers would see another package.
    func testALocalHeaderNamingAnotherPartIsRefused() throws {
        let path = try workbook(#"<row r="1"><c r="A1"><v>1</v></c></row>"#)
        XCTAssertEqual(try read(path, .scanner).rows, "1: number 1.0", "the unaltered workbook reads")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let central = Array("xl/worksheets/sheet1.xml".utf8)
        // The first copy of the name is the local header's: the central directory comes last.
        let start = try XCTUnwrap(
            (0...(bytes.count - central.count)).first { bytes[$0..<($0 + central.count)].elementsEqual(central) })
        XCTAssertEqual(Array(bytes[(start - 30)..<(start - 26)]), [0x50, 0x4B, 0x03, 0x04], "a local header")
        bytes.replaceSubrange(start..<(start + central.count), with: Array("xl/worksheets/sheet2.xml".utf8))
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        XCTAssertThrowsError(try XLSXWorkbook(path: path)) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .localNameMismatch(local: "xl/worksheets/sheet2.xml"))
            XCTAssertEqual((error as? ZipError)?.part, "xl/worksheets/sheet1.xml")
            XCTAssertEqual(
                "\(error)",
                "\(path): xl/worksheets/sheet1.xml: the entry's local header names \"xl/worksheets/sheet2.xml\" instead; an entry carries one name in both headers (APPNOTE 4.3.7, 4.3.12), so the file is refused rather than read one way or the other"
            )
        }
    }
}
