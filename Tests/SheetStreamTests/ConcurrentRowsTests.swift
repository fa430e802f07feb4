import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// `readRowsConcurrently` hands its rows over in batches whose storage goes round again
/// (`BatchPipeline`'s recycling, `Row.exchangeCells(with:)`): rows a consumer keeps must stay
/// as they were read, rows of every width, gaps included, on either kind of file.
final class ConcurrentRowsTests: XCTestCase {
    /// Rows of 1 to 6 cells, some with a gap, enough of them for every batch slot to be reused.
    private static let rows: [[XLSXWriter.Value]] = (0..<6_000).map { index in
        let width = index % 6 + 1
        return (0..<width).map { column in
            if column == 1 && index % 5 == 0 { return .empty }
            return column % 2 == 0 ? .number(Double(index * 10 + column)) : .string("r\(index)c\(column)")
        }
    }

    func testKeptXLSXRowsEqualTheRowsReadOneByOne() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kept.xlsx").path
        let writer = try XLSXWriter(path: path)
        for row in Self.rows { try writer.writeRow(row) }
        try writer.close()
        try assertKeptRowsEqualSequentialRows(path: path, expectedCount: Self.rows.count)
    }

    func testKeptCSVRowsEqualTheRowsReadOneByOne() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kept.csv").path
        let text = Self.rows.map { row in
            row.map { cell in
                switch cell {
                case .number(let number): return String(Int(number))
                case .string(let text): return text
                default: return ""
                }
            }.joined(separator: ",")
        }.joined(separator: "\n")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try assertKeptRowsEqualSequentialRows(path: path, expectedCount: Self.rows.count)
    }

    private func assertKeptRowsEqualSequentialRows(
        path: String, expectedCount: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let spreadsheet = try SpreadsheetFile.open(path: path)
        let sheet = try XCTUnwrap(spreadsheet.sheets.first)
        var sequential: [(Int, [Cell])] = []
        try spreadsheet.readRows(of: sheet) { sequential.append(($0.number, $0.cells)) }
        var kept: [Row] = []
        try spreadsheet.readRowsConcurrently(of: sheet) { kept.append($0) }
        XCTAssertEqual(sequential.count, expectedCount, file: file, line: line)
        XCTAssertEqual(kept.count, sequential.count, file: file, line: line)
        let mismatches = zip(kept, sequential).filter { $0.number != $1.0 || $0.cells != $1.1 }
        XCTAssertEqual(mismatches.count, 0, "first: \(String(describing: mismatches.first))", file: file, line: line)
        XCTAssertEqual(kept.last?.cells, sequential.last?.1, file: file, line: line)
    }
}
