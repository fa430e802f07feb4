import CivilCalendar
import Feeds
import TestSupport
import Warehouse
import XCTest

/// A file lands whole or not at all (SPEC section 5), on SQLite and on PostgreSQL: a failure, too
/// many rejects, a crash or a dry run leave none of its rows.
final class FileRollbackTests: SmallStoresTestCase {
    /// A record whose store is not in the directory (the feeds never emit one) fails its file:
    /// the writer's check of the file's stores (SQLite, whose foreign keys are off for the
    /// ingest), PostgreSQL's merge check.
    func testARecordForAStoreOutsideTheDirectoryFailsItsFile() throws {
        try onEachBackend {
            let path = TestPaths.fixture("feeds/credit_small.csv")
            let outcome = warehouse.ingest(path: path, options: IngestOptions()) {
                PreparedFeed(feed: .salesAudit) { emit in
                    let figures = SalesFigures(totalSalesCents: 100, totalTransactions: 1, totalItems: 1)
                    try emit(
                        .salesAudit(
                            SalesAuditRecord(
                                store: "08", date: CivilDate(year: 2025, month: 7, day: 14), figures: figures)), 2)
                    try emit(
                        .salesAudit(
                            SalesAuditRecord(
                                store: "99", date: CivilDate(year: 2025, month: 7, day: 14), figures: figures)), 3)
                    return FeedReadResult(feed: .salesAudit, sheet: "credit_small.csv", headerRow: 1)
                }
            }
            XCTAssertEqual(outcome.status, .failed)
            XCTAssertEqual(outcome.error, "store_report: store 99 is not in the store directory")
            XCTAssertEqual(try count("store_report"), 0, outcome.error ?? "")
        }
    }

    func testRejectThresholdRollsBackTheWholeFile() throws {
        try onEachBackend {
            let outcome = ingest("sales_audit_small.csv", as: .salesAudit)
            XCTAssertEqual(outcome.status, .failed)
            XCTAssertEqual(outcome.error, "2 of 6 rows rejected (33.3%), over the 5.0% threshold; nothing was written")
            XCTAssertEqual(try count("store_report"), 0)
            let run = try XCTUnwrap(warehouse.runs(limit: 1).first)
            XCTAssertEqual(run.status, "failed")
            XCTAssertEqual(run.rejected, 2)
            XCTAssertEqual(run.rejects.map(\.row), [11, 12], "the rejects stay in the ledger for review")
        }
    }

    func testCrashMidFileLeavesNothingOfIt() throws {
        try onEachBackend {
            let outcome = ingest(
                "sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 1), failAfter: 2)
            XCTAssertEqual(outcome.status, .failed)
            XCTAssertEqual(try count("store_report"), 0)
            XCTAssertEqual(
                ingest("sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 1)).status,
                .ok,
                "a failed file is not a duplicate: it can be ingested again")
        }
    }

    func testDryRunWritesNothingNotEvenTheLedger() throws {
        try onEachBackend {
            let runs = try warehouse.runs(limit: 100).count
            let outcome = ingest("credit_small.csv", as: .creditApps, options: IngestOptions(dryRun: true))
            XCTAssertEqual(outcome.counts.inserted, 2)
            XCTAssertEqual(try count("credit_report"), 0)
            XCTAssertEqual(try warehouse.runs(limit: 100).count, runs)
        }
    }
}
