import OutputText
import SheetDump
import SheetStream
import TestSupport
import XCTest

/// Conformance over `../shared/corpus/calamine` (real files from Excel, LibreOffice, Google
/// Sheets, WPS, …): every file opens, or fails with a clear error (only the encrypted one);
/// the first sheet dumps exactly as `calamine-expected/` (openpyxl) says, except where openpyxl
/// is shown wrong below; and the values calamine's own tests state hold.
final class CorpusConformanceTests: XCTestCase {
    private var corpus: URL!
    private var directory: URL!

    override func setUpWithError() throws {
        guard let corpus = TestPaths.corpus else { throw XCTSkip("../shared/corpus is absent") }
        self.corpus = corpus
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let directory { try FileManager.default.removeItem(at: directory) }
    }

    /// Where ddkpi and openpyxl disagree and ddkpi is right: (file, expected line, ddkpi line).
    ///
    /// `date.xlsx` and `date_1904.xlsx` A3 store `10.6320601851852` with the elapsed format
    /// `[hh]:mm:ss`: a duration, so a number. openpyxl turns it into a `timedelta` (rounded to
    /// microseconds) and back, printing `10.632060185185185`; ddkpi keeps the stored value, as
    /// calamine's test `date_xlsx_1904` does (`ExcelDateTime::new(10.6320601851852, TimeDelta, …)`).
    private static let openpyxlWrong: [String: (expected: String, ours: String)] = [
        "date": ("10.632060185185185,17", "10.6320601851852,17"),
        "date_1904": ("10.632060185185185,17", "10.6320601851852,17"),
    ]

    private func files() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: corpus.appendingPathComponent("calamine"), includingPropertiesForKeys: nil
        )
        .filter { ["xlsx", "xlsm"].contains($0.pathExtension) }
        .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    private func dump(_ url: URL) throws -> String {
        let file = try SpreadsheetFile.open(path: url.path)
        let output = directory.appendingPathComponent(url.lastPathComponent + ".csv")
        var writer = RowWriter(format: .csv, output: try TextOutput(path: output.path))
        if let sheet = file.sheets.first {
            writer.begin(file: url.path, sheet: sheet.name)
            try file.readRows(of: sheet) { writer.write($0) }
        }
        writer.end()
        return try String(contentsOf: output, encoding: .utf8)
    }

    func testEveryFileOpensExceptTheEncryptedOne() throws {
        var opened = 0
        for url in try files() {
            do {
                _ = try dump(url)
                opened += 1
            } catch {
                XCTAssertEqual(url.lastPathComponent, "pass_protected.xlsx", "\(error)")
                XCTAssertTrue("\(error)".contains("encrypted or not an XLSX"), "\(error)")
            }
        }
        XCTAssertEqual(opened, try files().count - 1)
    }

    func testFirstSheetsAgreeWithOpenpyxl() throws {
        var compared = 0
        for url in try files() {
            let name = url.deletingPathExtension().lastPathComponent
            let expectedURL = corpus.appendingPathComponent("calamine-expected/\(name).csv")
            guard let expected = try? String(contentsOf: expectedURL, encoding: .utf8) else { continue }
            var ours = try dump(url)
            if let known = Self.openpyxlWrong[name] {
                XCTAssertTrue(ours.contains(known.ours), name)
                ours = ours.replacingOccurrences(of: known.ours, with: known.expected)
            }
            XCTAssertEqual(ours.trimmingTrailingNewline, expected.trimmingTrailingNewline, name)
            compared += 1
        }
        XCTAssertEqual(compared, 61)
    }

    func testValuesStatedByCalamineTests() throws {
        func rows(_ name: String, sheet: String? = nil) throws -> [Row] {
            let workbook = try XLSXWorkbook(path: corpus.appendingPathComponent("calamine/\(name)").path)
            let info = try XCTUnwrap(sheet.map { workbook.sheet(named: $0) } ?? workbook.sheets.first)
            var rows: [Row] = []
            try workbook.readRows(of: info) { rows.append($0) }
            return rows
        }
        XCTAssertEqual(try rows("issue_419.xlsx")[0].cells, [.string("Hello")])
        XCTAssertEqual(try rows("has_x000D_.xlsx")[0][0], .string("ABC\r\nDEF"))
        XCTAssertEqual(try rows("has_x000D_inline.xlsx")[0][0], .string("ABC\r\nDEF"))
        XCTAssertEqual(try rows("inlineStr_cdata.xlsx")[0].cells, [.string("Hello CDATA"), .string("World")])
        XCTAssertEqual(try rows("rph.xlsx")[0][0], .string("課きく　毛こ"))
        XCTAssertEqual(try rows("minimal_package.xlsx", sheet: "Sheet1")[2][0], .string("BKG_NUM"))
        XCTAssertEqual(
            try rows("empty_s_attribute.xlsx").map(\.cells).prefix(2),
            [[.string("Name"), .string("Value")], [.string("John"), .number(1)]])
        XCTAssertEqual(
            try rows("nonstandard-xml-ns-prefix.xlsx").map(\.cells),
            [[.string("a"), .string("b")], [.number(1), .number(3)], [.number(2), .number(4)]])
        XCTAssertEqual(try rows("issues.xlsx", sheet: "issue2").map(\.cells).first, [.number(1), .string("a")])
        XCTAssertEqual(
            try rows("errors.xlsx").prefix(7).map { $0[0] },
            ["#DIV/0!", "#NAME?", "#VALUE!", "#NULL!", "#REF!", "#NUM!", "#N/A"].map(Cell.error))
        let workbook1904 = try XLSXWorkbook(path: corpus.appendingPathComponent("calamine/date_1904.xlsx").path)
        XCTAssertEqual(workbook1904.dateSystem, .date1904)
        XCTAssertEqual(try rows("date_1904.xlsx")[0][0], .date(CellDateTime(year: 2021, month: 1, day: 1)!))
        XCTAssertEqual(try rows("date_1904.xlsx")[2][0], .number(10.6320601851852))
        // Opens at all: backslash part names, strict (purl.oclc.org) namespaces.
        XCTAssertFalse(try rows("issue_530.xlsx").isEmpty)
        XCTAssertFalse(try rows("strict_iso_paths.xlsx").isEmpty)
    }

    func testSheetMetadata() throws {
        let workbook = try XLSXWorkbook(path: corpus.appendingPathComponent("calamine/any_sheets.xlsx").path)
        XCTAssertEqual(workbook.sheets.map(\.name), ["Visible", "Hidden", "VeryHidden", "Chart"])
        XCTAssertEqual(workbook.sheets.map(\.state), [.visible, .hidden, .veryHidden, .visible])
        XCTAssertEqual(workbook.sheets.map(\.kind), ["worksheet", "worksheet", "worksheet", "chartsheet"])
        let ordered = try XLSXWorkbook(path: corpus.appendingPathComponent("calamine/issue127.xlsx").path)
        XCTAssertEqual(ordered.sheets.map(\.name), (1...8).map { "Sheet\($0)" })
    }

    /// issue252.xlsx has a corrupt `xl/_rels/workbook.xml.rels` (its deflate data inflates to
    /// 699 garbled bytes, not the 697 declared). The sheet itself is intact, so the reader finds
    /// it through `[Content_Types].xml` and says so in a warning.
    func testCorruptWorkbookRelationshipsAreRebuiltFromContentTypes() throws {
        let workbook = try XLSXWorkbook(path: corpus.appendingPathComponent("calamine/issue252.xlsx").path)
        XCTAssertEqual(workbook.warnings.count, 1)
        XCTAssertTrue(workbook.warnings[0].contains("xl/_rels/workbook.xml.rels: size mismatch"), workbook.warnings[0])
        var rows: [Row] = []
        try workbook.readRows(of: workbook.sheets[0]) { rows.append($0) }
        XCTAssertEqual(rows.first?[0], .string("data"))
        XCTAssertEqual(rows.count, 5)
    }
}

extension String {
    var trimmingTrailingNewline: String {
        var text = self
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
