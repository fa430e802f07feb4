import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// A missing or corrupt `_rels/.rels` falls back to the workbook part named in
/// `[Content_Types].xml`, then `xl/workbook.xml`, with a warning (as openpyxl reads such files).
final class PackageFallbackTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    private static let namespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    private static let relationshipsNamespace = "http://schemas.openxmlformats.org/package/2006/relationships"

    /// A one-sheet workbook at `workbookPart`, with the package relationships given (`nil`: none)
    /// and content types naming the workbook when `typed`.
    private func workbook(_ name: String, workbookPart: String, packageRelationships: String?, typed: Bool) throws
        -> String
    {
        let path = folder.appendingPathComponent(name).path
        let zip = try ZipWriter(path: path)
        let workbookOverride =
            typed
            ? "<Override PartName=\"/\(workbookPart)\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
            : ""
        let directory = workbookPart.split(separator: "/").dropLast().joined(separator: "/")
        let fileName = workbookPart.split(separator: "/").last.map(String.init) ?? workbookPart
        let entries: [(String, String?)] = [
            (
                "[Content_Types].xml",
                "<?xml version=\"1.0\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default Extension=\"xml\" ContentType=\"application/xml\"/>\(workbookOverride)</Types>"
            ),
            ("_rels/.rels", packageRelationships),
            (
                workbookPart,
                "<?xml version=\"1.0\"?><workbook xmlns=\"\(Self.namespace)\" xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets><sheet name=\"Data\" sheetId=\"1\" r:id=\"rId1\"/></sheets></workbook>"
            ),
            (
                "\(directory)/_rels/\(fileName).rels",
                "<?xml version=\"1.0\"?><Relationships xmlns=\"\(Self.relationshipsNamespace)\"><Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet\" Target=\"sheet1.xml\"/></Relationships>"
            ),
            (
                "\(directory)/sheet1.xml",
                "<?xml version=\"1.0\"?><worksheet xmlns=\"\(Self.namespace)\"><sheetData><row r=\"1\"><c r=\"A1\"><v>42</v></c></row></sheetData></worksheet>"
            ),
        ]
        for (name, text) in entries {
            guard let text else { continue }
            try zip.beginEntry(name)
            try zip.write(text)
            try zip.endEntry()
        }
        try zip.finish()
        return path
    }

    private func firstCell(_ path: String) throws -> (Cell?, [String]) {
        let workbook = try XLSXWorkbook(path: path)
        var first: Cell?
        try workbook.readRows(of: try XCTUnwrap(workbook.sheets.first)) { row in
            if first == nil { first = row.cells.first }
        }
        return (first, workbook.warnings)
    }

    func testAMissingPackageRelationshipsPartUsesTheContentTypes() throws {
        let path = try workbook(
            "missing_rels.xlsx", workbookPart: "book/main.xml", packageRelationships: nil, typed: true)
        let (cell, warnings) = try firstCell(path)
        XCTAssertEqual(cell, .number(42))
        XCTAssertEqual(
            warnings,
            ["\(path): _rels/.rels is missing; workbook book/main.xml located through [Content_Types].xml instead"])
    }

    func testACorruptPackageRelationshipsPartUsesTheContentTypesThenTheUsualName() throws {
        let corrupt = "<Relationships><Relationship Id=\"rId1\""
        let typed = try workbook(
            "corrupt_rels.xlsx", workbookPart: "xl/workbook.xml", packageRelationships: corrupt, typed: true)
        let (cell, warnings) = try firstCell(typed)
        XCTAssertEqual(cell, .number(42))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(
            warnings[0].hasSuffix("; workbook xl/workbook.xml located through [Content_Types].xml instead"), warnings[0]
        )
        let untyped = try workbook(
            "corrupt_rels_untyped.xlsx", workbookPart: "xl/workbook.xml", packageRelationships: corrupt, typed: false)
        XCTAssertEqual(try firstCell(untyped).0, .number(42), "xl/workbook.xml by its usual name")
        let nowhere = try workbook(
            "no_workbook.xlsx", workbookPart: "book/main.xml", packageRelationships: nil, typed: false)
        XCTAssertThrowsError(try XLSXWorkbook(path: nowhere)) { error in
            XCTAssertTrue("\(error)".contains("not a spreadsheet package"), "\(error)")
        }
    }
}
