import Feeds
import Foundation
import TestSupport
import Warehouse
import XCTest

/// A file's SHA-256, computed while it is read, makes the same bytes a duplicate (SPEC section 5), on
/// SQLite and on PostgreSQL.
final class DuplicateFileTests: SmallStoresTestCase {
    func testSameFileTwiceIsADuplicateAndChangesNothing() throws {
        try onEachBackend {
            XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
            let before = try dump()
            let again = ingest("credit_small.csv", as: .creditApps)
            XCTAssertEqual(again.status, .duplicate)
            XCTAssertEqual(try dump(), before)
            let values = "SELECT date, store_code, total_applications FROM credit_report ORDER BY 1, 2"
            let valuesBefore = try warehouse.rows(values, columns: 3)
            let forced = ingest("credit_small.csv", as: .creditApps, options: IngestOptions(force: true))
            XCTAssertEqual(forced.status, .ok)
            XCTAssertEqual(forced.counts, UpsertCounts(inserted: 0, updated: 0, unchanged: 2))
            XCTAssertEqual(try warehouse.rows(values, columns: 3), valuesBefore, "the same values")
            XCTAssertEqual(
                try warehouse.rows("SELECT DISTINCT ingest_run_id FROM credit_report", columns: 1),
                [[forced.runID.map(String.init)]], "the forced run re-sent every key unchanged: it holds them")
            XCTAssertEqual(try warehouse.runs(limit: 10).map(\.status), ["ok", "duplicate", "ok", "ok"])
        }
    }

    func testLedgerHasTheDigestComputedWhileReading() throws {
        try onEachBackend {
            XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
            let run = try XCTUnwrap(warehouse.runs(limit: 1).first)
            let path = TestPaths.fixture("feeds/credit_small.csv")
            XCTAssertEqual(run.sha256, try SHA256.ofFile(path).digest)
            XCTAssertEqual(
                run.size, Int64(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)))
        }
    }

    func testDuplicateVerdictWinsOverAFailureToRead() throws {
        try onEachBackend {
            XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
            // The same bytes as another feed: its header is not found, but the file is a duplicate first.
            let again = ingest("credit_small.csv", as: .salesAudit)
            XCTAssertEqual(again.status, .duplicate, again.error ?? "")
            XCTAssertEqual(again.feed, .creditApps)
            XCTAssertEqual(try warehouse.runs(limit: 1).first?.status, "duplicate")
        }
    }
}
