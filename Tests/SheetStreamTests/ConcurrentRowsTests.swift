import Foundation
import SheetFixtures
import TestSupport
import Threads
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

    /// A batch size forces a hand-over between the threads at every record boundary (1), or at
    /// every second, third and so on: the rows, and the error that ends a file inside a quoted
    /// field, are the same as read on one thread, on a thread started per read or reused.
    func testAForcedSplitAtEveryBoundaryReadsTheSameRows() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = [
            "a,b\n1,2\n3,4\n",
            "a,b\r\n\"multi\nline\",1\r\n\"x\"\"y\",\"\r\n\"\r\n,\n\nlast",
            "h\n\"one\ntwo\nthree\"\n\"\"\n4\n\"5\n6\"",
            // The rows before the error reach the consumer however they were batched.
            "a,b\n1,2\n\"open\nstill open",
        ]
        let worker = try WorkerThread()
        for (index, text) in inputs.enumerated() {
            let path = try TestPaths.write(Array(text.utf8), named: "split\(index).csv", in: folder)
            let file = try SpreadsheetFile.open(path: path)
            let sheet = try XCTUnwrap(file.sheets.first)
            let sequential = Self.rowsAndError { body in try file.readRows(of: sheet, body) }
            XCTAssertGreaterThan(sequential.rows.count, 1, "input \(index)")
            for batchSize in 1...sequential.rows.count + 1 {
                for reader in [nil, worker] {
                    let split = Self.rowsAndError { body in
                        try file.readRowsConcurrently(of: sheet, batchSize: batchSize, on: reader, body)
                    }
                    XCTAssertEqual(split.rows.count, sequential.rows.count, "input \(index), batches of \(batchSize)")
                    XCTAssertTrue(
                        zip(split.rows, sequential.rows).allSatisfy { $0.number == $1.number && $0.cells == $1.cells },
                        "input \(index), batches of \(batchSize)")
                    XCTAssertEqual(split.error, sequential.error, "input \(index), batches of \(batchSize)")
                }
            }
        }
    }

    /// The rows a read hands over, kept, and the description of the error that ended it.
    private static func rowsAndError(_ read: (@escaping (Row) throws -> Void) throws -> Void) -> (
        rows: [Row], error: String?
    ) {
        var rows: [Row] = []
        do {
            try read { rows.append($0) }
            return (rows, nil)
        } catch {
            return (rows, "\(error)")
        }
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
