import CivilCalendar
import Feeds
import Foundation
import SheetFixtures
import SheetStream
import TestSupport
import XCTest

/// A CSV's rows are mapped on the reading thread and an XLSX's on the calling one
/// (`FeedFileReader.read`): both hand the same records, rows, rejects and progress to the caller
/// in file order, and a caller that stops mid-file stops the reading and its threads.
final class FeedReadingThreadsTests: XCTestCase {
    private let directory = StoreDirectory(stores: [
        StoreRecord(code: "08", name: "Natick", region: "East"),
        StoreRecord(code: "10", name: "Framingham", region: "East"),
    ])
    private static let header = ["store", "date", "net_sales", "transactions", "items"]
    /// More than `FeedFileReader.progressInterval`, so that progress is told once.
    private static let rowCount = 70_000

    private struct StopHere: Error {}

    /// Row `index`'s cells: every 9,973rd names an unknown store and every 10,007th has no sales
    /// figure (rejects), the rest alternate between the two stores day by day.
    private static func cells(_ index: Int) -> [String] {
        let date = CivilDate(year: 2000, month: 1, day: 1).adding(days: index / 2)
        let store = index % 9_973 == 17 ? "99" : (index % 2 == 0 ? "08" : "10")
        let sales = index % 10_007 == 5 ? "n/a" : "\(index % 997).25"
        return [store, date.iso8601, sales, "\(index % 50 + 1)", "\(index % 90 + 1)"]
    }

    /// A CSV of the header and rows `0..<rows`, each row's cells as `cells` gives them, in `folder`.
    private static func writeCSV(rows: Int, in folder: URL, cells: (Int) -> [String] = cells) throws -> String {
        let lines = [header] + (0..<rows).map(cells)
        let text = lines.map { $0.joined(separator: ",") + "\n" }.joined()
        return try TestPaths.write(Array(text.utf8), named: "sales_audit.csv", in: folder)
    }

    /// The same rows as a CSV and as an XLSX (text cells, as a CSV has them) in `folder`.
    private func writeBoth(in folder: URL) throws -> [String] {
        let xlsxPath = folder.appendingPathComponent("sales_audit.xlsx").path
        let xlsx = try XLSXWriter(path: xlsxPath)
        try xlsx.writeRow(Self.header.map { .string($0) })
        for index in 0..<Self.rowCount { try xlsx.writeRow(Self.cells(index).map { .string($0) }) }
        try xlsx.close()
        return [try Self.writeCSV(rows: Self.rowCount, in: folder), xlsxPath]
    }

    private var reader: FeedFileReader {
        FeedFileReader(definition: FeedCatalog.definition(.salesAudit), directory: directory, options: FeedOptions())
    }

    func testCSVAndXLSXHandOverTheSameRecordsRowsRejectsAndProgressInFileOrder() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outcomes: [(records: [FeedRecord], rows: [Int], result: FeedReadResult, progress: [Int])] = []
        var mappedOnCallingThread: [Bool] = []
        let callingThread = pthread_self()
        for path in try writeBoth(in: folder) {
            var records: [FeedRecord] = []
            var rows: [Int] = []
            var progress: [Int] = []
            var progressThread: pthread_t?
            let result = try reader.read(
                try SpreadsheetFile.open(path: path),
                progress: {
                    progress.append($0)
                    progressThread = pthread_self()
                },
                emitWithRow: { record, row in
                    records.append(record)
                    rows.append(row)
                })
            outcomes.append((records, rows, result, progress))
            mappedOnCallingThread.append(progressThread.map { pthread_equal($0, callingThread) != 0 } ?? false)
        }
        let (csv, xlsx) = (outcomes[0], outcomes[1])
        // A CSV's rows are mapped (and progress told) on the reading thread, an XLSX's on this one.
        XCTAssertEqual(mappedOnCallingThread, [false, true])
        let rejectedIndices = (0..<Self.rowCount).filter { $0 % 9_973 == 17 || $0 % 10_007 == 5 }
        XCTAssertEqual(csv.result.read, Self.rowCount)
        XCTAssertEqual(csv.result.rejected, rejectedIndices.count)
        XCTAssertEqual(csv.result.rejects.map(\.row), rejectedIndices.map { $0 + 2 })
        XCTAssertEqual(csv.records.count, Self.rowCount - rejectedIndices.count)
        // In file order, each with its own source row (the header is row 1).
        XCTAssertEqual(csv.rows, (0..<Self.rowCount).filter { !rejectedIndices.contains($0) }.map { $0 + 2 })
        XCTAssertEqual(
            csv.records[1],
            .salesAudit(
                SalesAuditRecord(
                    store: "10", date: CivilDate(year: 2000, month: 1, day: 1),
                    figures: SalesFigures(totalSalesCents: 125, totalTransactions: 2, totalItems: 2))))
        XCTAssertEqual(csv.progress, [FeedFileReader.progressInterval])
        XCTAssertEqual(xlsx.records, csv.records)
        XCTAssertEqual(xlsx.rows, csv.rows)
        XCTAssertEqual(xlsx.result.read, csv.result.read)
        XCTAssertEqual(xlsx.result.skipped, csv.result.skipped)
        XCTAssertEqual(xlsx.result.rejected, csv.result.rejected)
        XCTAssertEqual(xlsx.result.warnings, csv.result.warnings)
        XCTAssertEqual(xlsx.result.rejects.map(\.row), csv.result.rejects.map(\.row))
        XCTAssertEqual(xlsx.result.rejects.map(\.reason), csv.result.rejects.map(\.reason))
        XCTAssertEqual(xlsx.progress, csv.progress)
    }

    func testAWriterThatStopsMidFileStopsTheReadingAndItsThreads() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in try writeBoth(in: folder) {
            let threadsBefore = ProcessThreads.count
            var written = 0
            var progressTold = 0
            XCTAssertThrowsError(
                try reader.read(
                    try SpreadsheetFile.open(path: path), progress: { _ in progressTold += 1 },
                    emitWithRow: { _, _ in
                        written += 1
                        if written == 5_000 { throw StopHere() }
                    })
            ) { XCTAssertTrue($0 is StopHere, "\(path): the writer's own error, got \($0)") }
            XCTAssertEqual(written, 5_000, path)
            // The reading stopped near row 5,000: it never reached row 65,536, the first progress.
            XCTAssertEqual(progressTold, 0, path)
            // No more threads than before: a leaked one never ends, while one that the runtime or
            // another test started meanwhile is given a moment to.
            XCTAssertLessThanOrEqual(ProcessThreads.settledCount(atMost: threadsBefore), threadsBefore, path)
        }
    }

    func testACSVErrorMidFileEndsTheReadAfterTheRecordsBeforeIt() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.writeCSV(rows: 10_000, in: folder) { index in
            var cells = Self.cells(index)
            // Row 3,002: a field over the reader's 1 MiB limit.
            if index == 3_000 { cells[0] = String(repeating: "x", count: 1_100_000) }
            return cells
        }
        let threadsBefore = ProcessThreads.count
        var rows: [Int] = []
        XCTAssertThrowsError(
            try reader.read(try SpreadsheetFile.open(path: path), emitWithRow: { _, row in rows.append(row) })
        ) { XCTAssertTrue("\($0)".contains("longer than"), "the reader's error, got \($0)") }
        // Whole batches of records before the bad row arrive, in order; none from after it.
        let expected = (0..<3_000).filter { $0 % 9_973 != 17 && $0 % 10_007 != 5 }.map { $0 + 2 }
        XCTAssertEqual(rows, Array(expected.prefix(rows.count)))
        XCTAssertGreaterThan(rows.count, expected.count - 300)
        XCTAssertLessThanOrEqual(ProcessThreads.settledCount(atMost: threadsBefore), threadsBefore)
    }
}
