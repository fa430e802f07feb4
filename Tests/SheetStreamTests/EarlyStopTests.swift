import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// A read that stops early (a malformed sheet, an error thrown by the consumer) stops, joins and
/// frees every background thread and buffer of the reader (issue: a failed sheet leaked its
/// inflate thread and its chunks).
final class EarlyStopTests: XCTestCase {
    private struct StopHere: Error {}

    func testFiveHundredMalformedSheetsLeaveNoThreadsOrBuffers() throws {
        let path = TestPaths.fixture("malformed_sheet.xlsx")
        let read = {
            let file = try SpreadsheetFile.open(path: path)
            let sheet = try XCTUnwrap(file.sheets.first)
            XCTAssertThrowsError(try file.readRowsConcurrently(of: sheet) { _ in })
        }
        // One read first, so that a thread the runtime starts once, on first use, is counted before.
        try read()
        let threadsBefore = ProcessThreads.count
        let chunksBefore = PrefetchingSource.liveChunks
        for _ in 0..<500 { try read() }
        // No more threads than before: a leaked reader thread never ends, while one that the
        // runtime or another test started meanwhile is given a moment to.
        XCTAssertLessThanOrEqual(ProcessThreads.settledCount(atMost: threadsBefore), threadsBefore)
        XCTAssertEqual(PrefetchingSource.liveChunks, chunksBefore)
    }

    func testAConsumerThatStopsMidSheetLeavesNoThreadsOrBuffers() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("big.xlsx").path
        let writer = try XLSXWriter(path: path)
        for row in 0..<40_000 {
            try writer.writeRow([.number(Double(row)), .string("row \(row % 97)"), .number(Double(row) / 3)])
        }
        try writer.close()
        let readStoppingAt = { (stopAt: Int) in
            let file = try SpreadsheetFile.open(path: path)
            let sheet = try XCTUnwrap(file.sheets.first)
            var seen = 0
            XCTAssertThrowsError(
                try file.readRowsConcurrently(of: sheet) { _ in
                    seen += 1
                    if seen == stopAt { throw StopHere() }
                }
            ) { XCTAssertTrue($0 is StopHere) }
            XCTAssertEqual(seen, stopAt)
        }
        // One read first, so that a thread the runtime starts once, on first use, is counted before.
        try readStoppingAt(1)
        let threadsBefore = ProcessThreads.count
        let chunksBefore = PrefetchingSource.liveChunks
        for stopAt in [1, 5_000, 39_999] { try readStoppingAt(stopAt) }
        // No more threads than before: a leaked reader thread never ends, while one that the
        // runtime or another test started meanwhile is given a moment to.
        XCTAssertLessThanOrEqual(ProcessThreads.settledCount(atMost: threadsBefore), threadsBefore)
        XCTAssertEqual(PrefetchingSource.liveChunks, chunksBefore)
    }
}
