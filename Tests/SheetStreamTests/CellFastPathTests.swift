import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// `XMLScanner` hands a sheet's `<c …><v>…</v></c>` to `SheetHandler` in one call
/// (`elementWithLeaf`); libxml2 never does. Each sheet below, of values and of the errors a
/// cell can raise, reads the same through both: the same rows, or the same error.
final class CellFastPathTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    private static let namespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

    /// A one-sheet workbook whose `sheetData` holds `rows`, with the shared strings "zero" and
    /// "one" and a date style (1).
    private func workbook(_ rows: String) throws -> String {
        let path = folder.appendingPathComponent("sheet.xlsx").path
        let zip = try ZipWriter(path: path)
        let entries = [
            (
                "[Content_Types].xml",
                #"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>"#
            ),
            (
                "_rels/.rels",
                #"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"#
            ),
            (
                "xl/workbook.xml",
                #"<?xml version="1.0"?><workbook xmlns="\#(Self.namespace)" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#
            ),
            (
                "xl/_rels/workbook.xml.rels",
                #"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"#
            ),
            (
                "xl/sharedStrings.xml",
                #"<?xml version="1.0"?><sst xmlns="\#(Self.namespace)" count="2" uniqueCount="2"><si><t>zero</t></si><si><t>one</t></si></sst>"#
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

    /// The rows (number and cells) or the error message, read through `parser`.
    private func read(_ path: String, _ parser: XMLPartReader.BulkParser, maxCellBytes: Int) throws -> String {
        let workbook = try XLSXWorkbook(path: path, limits: XLSXLimits(maxCellBytes: maxCellBytes))
        workbook.worksheetParser = parser
        var rows: [String] = []
        do {
            try workbook.readRows(of: workbook.sheets[0]) { rows.append("\($0.number): \($0.cells)") }
            return rows.joined(separator: "\n")
        } catch {
            return "\(rows.count) rows, then: \(error)".replacingOccurrences(of: path, with: "F")
        }
    }

    func testCellsReadTheSameWithOrWithoutTheOneCall() throws {
        let cases: [(rows: String, maxCellBytes: Int, expected: String)] = [
            (
                #"<row r="1"><c r="A1" t="s"><v>1</v></c><c r="B1" s="1"><v>45000</v></c><c r="C1"><v>-2.5</v></c>"#
                    + #"<c r="D1" t="b"><v>1</v></c><c r="E1" t="e"><v>#N/A</v></c><c r="F1" t="str"><v>x</v></c>"#
                    + #"<c r="G1" t="d"><v>2024-03-01</v></c><c r="I1"><v></v></c><c r="J1" t="s"><v> 0 </v></c>"#
                    + #"<c r="K1" t="inlineStr"><is><t>in</t></is></c><c t="s"><v>1.0</v></c></row>"#,
                1 << 20,
                "1: [SheetStream.Cell.string(\"one\"), SheetStream.Cell.date(SheetStream.CellDateTime(daysSinceEpoch: 19431, secondsOfDay: 0, isTimeOnly: false)), SheetStream.Cell.number(-2.5), "
                    + "SheetStream.Cell.bool(true), SheetStream.Cell.error(\"#N/A\"), SheetStream.Cell.string(\"x\"), "
                    + "SheetStream.Cell.date(SheetStream.CellDateTime(daysSinceEpoch: 19783, secondsOfDay: 0, isTimeOnly: false)), SheetStream.Cell.empty, SheetStream.Cell.empty, "
                    + "SheetStream.Cell.string(\"zero\"), SheetStream.Cell.string(\"in\"), SheetStream.Cell.string(\"one\")]"
            ),
            (
                #"<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2"><v>12345</v></c></row>"#, 4,
                "1 rows, then: F!S row 2, column A: cell text is longer than 4 bytes (the limit)"
            ),
            (
                #"<row r="1"><c r="XFE1"><v>1</v></c></row>"#, 1 << 20,
                "0 rows, then: F!S row 1: cell r=\"XFE1\": expected column letters A…XFD then a row number 1…1048576, like B12"
            ),
            (
                #"<row r="1"><c r="XFD1"><v>1</v></c><c><v>2</v></c></row>"#, 1 << 20,
                "0 rows, then: F!S row 1, column XFE: cell lies past the last column XFD"
            ),
            (
                #"<row r="1"><c r="A1" t="s"><v>7</v></c><c r="B1" t="s"><v>9</v></c></row>"#, 1 << 20,
                "0 rows, then: F!S row 1, column A: shared string index 7 is out of range (table has 2)"
            ),
            (
                #"<row r="1"><c r="A1" t="s"><v>x</v></c></row>"#, 1 << 20,
                "0 rows, then: F!S row 1, column A: \"x\" is not a shared-string index"
            ),
        ]
        for (rows, maxCellBytes, expected) in cases {
            let path = try workbook(rows)
            let scanned = try read(path, .scanner, maxCellBytes: maxCellBytes)
            XCTAssertEqual(scanned, try read(path, .libxml2, maxCellBytes: maxCellBytes), rows)
            XCTAssertEqual(scanned, expected, rows)
        }
    }

    func testAReadThatIsDoneEndsThereThroughEitherParser() throws {
        // Row 3 names a shared string the table lacks, and the part never closes `<oops>`.
        let path = try workbook(
            #"<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>"#
                + #"<row r="3"><c r="A3" t="s"><v>7</v></c></row><oops>"#)
        for parser in [XMLPartReader.BulkParser.scanner, .libxml2] {
            let workbook = try XLSXWorkbook(path: path)
            workbook.worksheetParser = parser
            var rows: [String] = []
            try workbook.readRowsWhile(of: workbook.sheets[0]) { row in
                rows.append("\(row.number): \(row.cells)")
                return row.number < 2
            }
            XCTAssertEqual(
                rows, ["1: [SheetStream.Cell.number(1.0)]", "2: [SheetStream.Cell.string(\"zero\")]"], "\(parser)")
            XCTAssertThrowsError(try workbook.readRows(of: workbook.sheets[0]) { _ in }, "\(parser)")
        }
    }
}
