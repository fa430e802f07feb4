import Foundation
import GRDB
import TestSupport
import XCTest

@testable import Warehouse

/// `SQLiteWriteBehind` starts the writeback of a warehouse file and its WAL on every tick while
/// a transaction runs, through the descriptors SQLite holds (the WAL's once SQLite creates
/// it), and leaves SQLite's locks on the file as they were: it opens and closes nothing.
final class SQLiteWriteBehindTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        #if !os(Linux)
            throw XCTSkip("sync_file_range and /proc are Linux's")
        #endif
        folder = try TestPaths.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        if let folder { try FileManager.default.removeItem(at: folder) }
    }

    func testBothFilesAreWrittenBehindAndSQLitesLocksStay() throws {
        let path = folder.appendingPathComponent("w.sqlite").path
        let pool = try DatabasePool(path: path)
        try pool.write { try $0.execute(sql: "CREATE TABLE t (x)") }
        let locks = try locksHeld(on: path)
        XCTAssertFalse(locks.isEmpty, "a WAL-mode connection holds a shared lock on the file")

        let writeBehind = try XCTUnwrap(SQLiteWriteBehind(path: path), "Linux has sync_file_range")
        try pool.write { db in
            for number in 0..<2_000 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [number]) }
            // The transaction runs for 20 intervals: ticks for both files.
            usleep(useconds_t(20 * SQLiteWriteBehind.intervalMilliseconds * 1000))
        }
        writeBehind.stop()
        let started = writeBehind.writebacksStarted
        XCTAssertEqual(started.count, 2)
        XCTAssertGreaterThan(started[0], 0, "the database")
        XCTAssertGreaterThan(started[1], 0, "the WAL")
        XCTAssertEqual(try locksHeld(on: path), locks, "closing a descriptor of the file would have dropped them")
        writeBehind.stop()
        XCTAssertEqual(writeBehind.writebacksStarted, started, "nothing after stop")
    }

    func testAFileNoDescriptorHoldsIsLeftAlone() throws {
        let path = folder.appendingPathComponent("absent.sqlite").path
        XCTAssertNil(SQLiteWriteBehind.heldDescriptor(of: path), "no such file")
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data([1])))
        XCTAssertNil(SQLiteWriteBehind.heldDescriptor(of: path), "a file nobody has open")
        XCTAssertEqual(SQLiteWriteBehind.during(databaseAt: path) { 42 }, 42)
        struct Failure: Error {}
        XCTAssertThrowsError(try SQLiteWriteBehind.during(databaseAt: path) { throw Failure() }) { error in
            XCTAssertTrue(error is Failure)
        }
    }

    /// This process's POSIX locks on the file at `path`, as `/proc/locks` lists them (type and
    /// byte range).
    private func locksHeld(on path: String) throws -> [String] {
        let inode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int)
        let table = try String(contentsOfFile: "/proc/locks", encoding: .utf8)
        return table.split(separator: "\n").compactMap { line in
            // "1: POSIX  ADVISORY  READ 1234 fd:01:56789 1073741826 1073742335"
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[1] == "POSIX", fields[4] == "\(getpid())",
                fields[5].split(separator: ":").last == "\(inode)"
            else { return nil }
            return "\(fields[3]) \(fields[6])-\(fields[7])"
        }
    }
}
