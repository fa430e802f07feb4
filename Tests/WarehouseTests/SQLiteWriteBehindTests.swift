import Foundation
import XCTest

@testable import Warehouse

/// `SQLiteWriteBehind` starts the writeback of the database file and its WAL on every tick
/// while the transaction runs, opens a WAL that appears meanwhile, and gives back what the body
/// returned or threw.
final class SQLiteWriteBehindTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("write-behind-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    func testBothFilesAreWrittenBehindWhileTheTransactionRuns() throws {
        let path = folder.appendingPathComponent("w.sqlite").path
        try Data(repeating: 1, count: 1 << 20).write(to: URL(fileURLWithPath: path))
        let writeBehind = try XCTUnwrap(SQLiteWriteBehind(path: path), "Linux has sync_file_range")
        // The WAL appears after the start, as SQLite creates it with the first write; each file
        // then has 10 to 20 intervals for its ticks.
        usleep(useconds_t(10 * SQLiteWriteBehind.intervalMilliseconds * 1000))
        try Data(repeating: 2, count: 1 << 20).write(to: URL(fileURLWithPath: path + "-wal"))
        usleep(useconds_t(20 * SQLiteWriteBehind.intervalMilliseconds * 1000))
        writeBehind.stop()
        let started = writeBehind.writebacksStarted
        XCTAssertEqual(started.count, 2)
        XCTAssertGreaterThan(started[0], 0, "the database")
        XCTAssertGreaterThan(started[1], 0, "the WAL, opened once it exists")
        writeBehind.stop()
        XCTAssertEqual(writeBehind.writebacksStarted, started, "nothing after stop")
    }

    func testTheBodysValueOrErrorComesBack() throws {
        let path = folder.appendingPathComponent("absent.sqlite").path
        XCTAssertEqual(SQLiteWriteBehind.during(databaseAt: path) { 42 }, 42, "files that do not exist are no error")
        struct Failure: Error {}
        XCTAssertThrowsError(try SQLiteWriteBehind.during(databaseAt: path) { throw Failure() }) { error in
            XCTAssertTrue(error is Failure)
        }
    }
}
