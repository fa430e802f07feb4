import Feeds
import Foundation
import GRDB
import Ingest
import TestSupport
import XCTest

@testable import Warehouse

/// SQLite's foreign keys and secure delete are off for an ingest's own transaction only
/// (`SQLiteBackend.ingestTransaction`): every write after it, whether the file landed or
/// failed, has them as before. (That the file's stores are still checked is
/// `FileRollbackTests.testARecordForAStoreOutsideTheDirectoryFailsItsFile`.)
final class IngestTransactionSettingsTests: WarehouseTestCase {
    func testForeignKeysAndSecureDeleteAreBackAfterAnIngestLandsOrFails() throws {
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

    /// The file's pages are copied into the database before the ingest returns (a checkpoint
    /// while the write-behind runs), not left in the WAL for the warehouse's close: the file
    /// alone, read without its WAL, holds the rows.
    func testAnIngestLeavesItsRowsInTheDatabaseFileItself() throws {
        let path = directory.appendingPathComponent("checkpointed.sqlite").path
        let warehouse = try Warehouse(path: path)
        for (fixture, feed) in [("stores_small.csv", FeedID.stores), ("sales_audit_small.csv", .salesAudit)] {
            // The sales fixture has rejects on purpose.
            let outcome = FileIngestor(
                warehouse: warehouse, explicitFeed: feed, options: IngestOptions(rejectThreshold: 0.5)
            )
            .ingest(TestPaths.fixture("feeds/\(fixture)"))
            XCTAssertEqual(outcome.status, .ok, "\(fixture): \(outcome.error ?? "")")
        }
        var inWarehouse: Int64?
        try warehouse.backend.transaction { session in
            inWarehouse = try session.integer("SELECT count(*) FROM store_report")
            return false
        }
        var configuration = Configuration()
        configuration.readonly = true
        let fileAlone = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration)
        let inFile = try fileAlone.read { try Int64.fetchOne($0, sql: "SELECT count(*) FROM store_report") }
        XCTAssertGreaterThan(inWarehouse ?? 0, 0)
        XCTAssertEqual(inFile, inWarehouse)
        withExtendedLifetime(warehouse) {}
    }
}
