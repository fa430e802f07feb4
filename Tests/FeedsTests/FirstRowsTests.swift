import Foundation
import SheetStream
import TestSupport
import XCTest

@testable import Feeds

/// Feed detection and the header search look at a file's first rows, read from it once.
final class FirstRowsTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    private func firstRows(_ name: String, _ text: String) throws -> FirstRows {
        let path = try TestPaths.write(Array(text.utf8), named: name, in: folder)
        return FirstRows(of: try SpreadsheetFile.open(path: path), searchRows: 30)
    }

    func testTheHeaderSearchLooksAtTheRowsDetectionRead() throws {
        let rows = try firstRows("export.csv", "Title\nStore,Date,Net Sales,Transactions,Items\n08,2025-07-14,1,1,1\n")
        XCTAssertEqual(try FeedDetector(options: FeedOptions()).detect(rows, explicit: nil), .salesAudit)
        // Rewritten in place: reading the file again would find no header row in it.
        try Data("x\n".utf8).write(to: URL(fileURLWithPath: rows.file.path))
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(.salesAudit), directory: StoreDirectory(stores: []),
            options: FeedOptions())
        XCTAssertEqual(try reader.searchHeader(in: rows).header?.row, 2)
    }

    func testALookThatGoesFurtherReadsOnFromWhereTheLastStopped() throws {
        let rows = try firstRows("export.csv", "a\nb\nc\nd\n")
        let sheet = try XCTUnwrap(rows.worksheets.first)
        var shown: [Int] = []
        let lookFor = { (number: Int) in
            try rows.contains(in: sheet) { row in
                shown.append(row.number)
                return row.number == number
            }
        }
        XCTAssertTrue(try lookFor(2))
        XCTAssertFalse(try lookFor(9))
        XCTAssertEqual(shown, [1, 2, 1, 2, 3, 4], "the kept rows, then the rest read on")
    }

    func testARowPastTheSearchAreaIsTheLastOneShown() throws {
        let rows = try firstRows("export.csv", (1...40).map { "row \($0)\n" }.joined())
        let sheet = try XCTUnwrap(rows.worksheets.first)
        var last = 0
        XCTAssertFalse(
            try rows.contains(in: sheet) { row in
                last = row.number
                return false
            })
        XCTAssertEqual(last, 30)
    }
}
