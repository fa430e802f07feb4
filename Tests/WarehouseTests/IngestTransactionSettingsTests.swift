import Feeds
import Foundation
import TestSupport
import XCTest

@testable import Warehouse

/// SQLite's foreign keys and secure delete are off for an ingest's own transaction only
/// (`SQLiteBackend.ingestTransaction`): every write after it, whether the file landed or
/// failed, has them as before. (That the file's stores are still checked is
/// `WarehouseTests.testARecordForAStoreOutsideTheDirectoryFailsItsFile`.)
final class IngestTransactionSettingsTests: XCTestCase {
    func testForeignKeysAndSecureDeleteAreBackAfterAnIngestLandsOrFails() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let warehouse = try Warehouse(path: directory.appendingPathComponent("keys.sqlite").path)
        var secureDelete: Int64?
        try warehouse.backend.transaction { session in
            secureDelete = try session.integer("PRAGMA secure_delete")
            return false
        }
        func ingest(_ fixture: String, as feed: FeedID) -> IngestStatus {
            FileIngestor(warehouse: warehouse, explicitFeed: feed, options: IngestOptions())
                .ingest(TestPaths.fixture("feeds/\(fixture)")).status
        }
        XCTAssertEqual(ingest("stores_small.csv", as: .stores), .ok)
        XCTAssertEqual(ingest("credit_small.csv", as: .creditApps), .ok)
        XCTAssertEqual(ingest("crm_intakes_small.csv", as: .salesAudit), .failed)
        try warehouse.backend.ingestTransaction { session in
            XCTAssertEqual(try session.integer("PRAGMA foreign_keys"), 0)
            XCTAssertEqual(try session.integer("PRAGMA secure_delete"), 0)
            return false
        }
        try warehouse.backend.transaction { session in
            XCTAssertEqual(try session.integer("PRAGMA secure_delete"), secureDelete)
            XCTAssertEqual(try session.integer("PRAGMA foreign_keys"), 1)
            XCTAssertThrowsError(
                try session.execute(
                    "INSERT INTO credit_report (store_code, date, total_applications) VALUES ('99', '2025-07-14', 1)",
                    []))
            return false
        }
    }
}
