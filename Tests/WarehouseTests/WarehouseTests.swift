import Feeds
import GRDB
import SheetStream
import TestSupport
import Warehouse
import XCTest

final class WarehouseTests: XCTestCase {
    private var directory: URL!
    private var warehouse: Warehouse!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        warehouse = try Warehouse(path: directory.appendingPathComponent("test.sqlite").path)
        let stores = ingest("stores_small.csv", as: .stores)
        XCTAssertEqual(stores.status, .ok)
    }

    override func tearDownWithError() throws {
        warehouse = nil
        try FileManager.default.removeItem(at: directory)
    }

    /// Ingests a file through the same path the CLI uses.
    @discardableResult
    private func ingest(
        _ fixture: String, as feed: FeedID, path: String? = nil, options: IngestOptions = IngestOptions(),
        failAfter: Int? = nil
    ) -> IngestOutcome {
        let file = path ?? TestPaths.fixture("feeds/\(fixture)")
        return warehouse.ingest(path: file, options: options) {
            let spreadsheet = try SpreadsheetFile.open(path: file)
            let reader = FeedFileReader(
                definition: FeedCatalog.definition(feed), directory: try warehouse.storeDirectory(), options: FeedOptions())
            return PreparedFeed(feed: feed) { emit in
                var written = 0
                return try reader.read(spreadsheet) { record in
                    if let failAfter, written == failAfter { throw SimulatedCrash() }
                    try emit(record)
                    written += 1
                }
            }
        }
    }

    private struct SimulatedCrash: Error {}

    private func copy(_ text: String, named name: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    /// Every table's rows as text, for byte-for-byte comparisons.
    private func dump(_ tables: [String] = ["store", "store_alias", "goal", "store_report", "credit_report"]) throws -> String {
        try warehouse.read { db in
            try tables.map { table in
                try String.fetchAll(db, sql: "SELECT quote(\(try db.columns(in: table).map(\.name).joined(separator: ")||','||quote("))) FROM \(table) ORDER BY 1")
                    .joined(separator: "\n")
            }.joined(separator: "\n--\n")
        }
    }

    func testUpsertCountsAndRecomputedValues() throws {
        let outcome = ingest("credit_small.csv", as: .creditApps)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
        XCTAssertEqual(outcome.counts, UpsertCounts(inserted: 2, updated: 0, unchanged: 0))
        XCTAssertEqual(ingest("sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 0.5)).counts.inserted, 4)
        let row = try warehouse.read { db in
            try GRDB.Row.fetchOne(
                db, sql: "SELECT total_sales_cents, upt, ads_cents, ccp_pct_millionths FROM store_report WHERE store_code = '08' AND date = '2025-07-14'")
        }
        XCTAssertEqual(row?["total_sales_cents"], 123_450)
        XCTAssertEqual(row?["upt"], 2.5)
        XCTAssertEqual(row?["ads_cents"], 12_345)
        XCTAssertEqual(row?["ccp_pct_millionths"], 452_000)
    }

    func testSameFileTwiceIsADuplicateAndChangesNothing() throws {
        XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
        let before = try dump()
        let again = ingest("credit_small.csv", as: .creditApps)
        XCTAssertEqual(again.status, .duplicate)
        XCTAssertEqual(try dump(), before)
        let forced = ingest("credit_small.csv", as: .creditApps, options: IngestOptions(force: true))
        XCTAssertEqual(forced.status, .ok)
        XCTAssertEqual(forced.counts, UpsertCounts(inserted: 0, updated: 0, unchanged: 2))
        XCTAssertEqual(try dump(), before, "byte for byte")
        XCTAssertEqual(try warehouse.runs(limit: 10).map(\.status), ["ok", "duplicate", "ok", "ok"])
    }

    func testCorrectedResendReplacesValues() throws {
        let original = try copy("Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n", named: "sales_audit_a.csv")
        let corrected = try copy("Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,110,2,3\n10,2025-07-14,50,1,1\n", named: "sales_audit_b.csv")
        XCTAssertEqual(ingest("", as: .salesAudit, path: original).counts, UpsertCounts(inserted: 2))
        XCTAssertEqual(ingest("", as: .salesAudit, path: corrected).counts, UpsertCounts(inserted: 0, updated: 1, unchanged: 1))
        let sales = try warehouse.read { db in try Int64.fetchOne(db, sql: "SELECT total_sales_cents FROM store_report WHERE store_code = '08'") }
        XCTAssertEqual(sales, 11_000)
        XCTAssertEqual(try warehouse.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM store_report") }, 2)
    }

    func testLedgerHasTheDigestComputedWhileReading() throws {
        XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
        let run = try XCTUnwrap(warehouse.runs(limit: 1).first)
        let path = TestPaths.fixture("feeds/credit_small.csv")
        XCTAssertEqual(run.sha256, try SHA256.ofFile(path).digest)
        XCTAssertEqual(run.size, Int64(try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)))
    }

    func testDuplicateVerdictWinsOverAFailureToRead() throws {
        XCTAssertEqual(ingest("credit_small.csv", as: .creditApps).status, .ok)
        // The same bytes as another feed: its header is not found, but the file is a duplicate first.
        let again = ingest("credit_small.csv", as: .salesAudit)
        XCTAssertEqual(again.status, .duplicate, again.error ?? "")
        XCTAssertEqual(again.feed, .creditApps)
        XCTAssertEqual(try warehouse.runs(limit: 1).first?.status, "duplicate")
    }

    func testRejectThresholdRollsBackTheWholeFile() throws {
        let outcome = ingest("sales_audit_small.csv", as: .salesAudit)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(outcome.error, "2 of 6 rows rejected (33.3%), over the 5.0% threshold; nothing was written")
        XCTAssertEqual(try warehouse.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM store_report") }, 0)
        let run = try XCTUnwrap(warehouse.runs(limit: 1).first)
        XCTAssertEqual(run.status, "failed")
        XCTAssertEqual(run.rejected, 2)
        XCTAssertEqual(run.rejects.map(\.row), [11, 12], "the rejects stay in the ledger for review")
    }

    func testCrashMidFileLeavesNothingOfIt() throws {
        let outcome = ingest("sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 1), failAfter: 2)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(try warehouse.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM store_report") }, 0)
        XCTAssertEqual(ingest("sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 1)).status, .ok,
                       "a failed file is not a duplicate: it can be ingested again")
    }

    func testDryRunWritesNothingNotEvenTheLedger() throws {
        let runs = try warehouse.runs(limit: 100).count
        let outcome = ingest("credit_small.csv", as: .creditApps, options: IngestOptions(dryRun: true))
        XCTAssertEqual(outcome.counts.inserted, 2)
        XCTAssertEqual(try warehouse.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM credit_report") }, 0)
        XCTAssertEqual(try warehouse.runs(limit: 100).count, runs)
    }

    func testStoreDirectoryRoundTripAndGoals() throws {
        let stores = try warehouse.stores()
        XCTAssertEqual(stores.map(\.code), ["08", "10"])
        XCTAssertEqual(stores[0].aliases.sorted(), ["Hannoush Jewelers - Natick", "Natick Mall"])
        let goals = ingest("goals_small.csv", as: .goals, options: IngestOptions(rejectThreshold: 1))
        XCTAssertEqual(goals.counts.inserted, 3)
        let daily = try warehouse.read { db in try Double.fetchOne(db, sql: "SELECT target FROM goal WHERE date = '2025-07-14'") }
        XCTAssertEqual(daily, 5000)
    }

    func testWeeklyTablesKeepDailyCountsInColumns() throws {
        XCTAssertEqual(ingest("calls_weekly_small.csv", as: .outboundCalls).counts.inserted, 2)
        let days = try warehouse.read { db in
            try GRDB.Row.fetchOne(db, sql: "SELECT * FROM outbound_call_report WHERE store_code = '08'")
        }
        XCTAssertEqual(days?["total_calls"], 28)
        XCTAssertEqual((0..<7).map { days?["day_\($0)"] as Int? }, [1, 2, 3, 4, 5, 6, 7])
        XCTAssertEqual(ingest("birdeye_weekly_small.csv", as: .birdeyeReviews).counts.inserted, 1)
        let reviews = try warehouse.read { db in try GRDB.Row.fetchOne(db, sql: "SELECT * FROM birdeye_report") }
        XCTAssertEqual(reviews?["review_count"], 7)
        XCTAssertNil(reviews?["day_0"] as Int?, "a weekly summary has no per-day counts")
    }

    /// Property: for random sets of cent amounts, written in the forms exports use, the
    /// warehouse's sums equal an independent integer sum, to the cent.
    func testMoneySumsEqualAnIndependentIntegerSum() throws {
        var generator = SystemRandomNumberGenerator()
        let first = CivilDate(year: 2025, month: 1, day: 1)
        for round in 0..<8 {
            var text = "Store,Date,Net Sales,Transactions,Items\n"
            var expected: Int64 = 0
            let days = Int.random(in: 1...300, using: &generator)
            for offset in 0..<days {
                for store in ["08", "10"] {
                    let cents = Int64.random(in: -5_000_000...500_000_000, using: &generator)
                    expected += cents
                    let magnitude = "\(abs(cents) / 100).\(String(format: "%02lld", abs(cents) % 100))"
                    let written: String
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: written = (cents < 0 ? "-" : "") + magnitude
                    case 1: written = cents < 0 ? "\"($\(magnitude))\"" : "$\(magnitude)"
                    default: written = (cents < 0 ? "-" : "") + magnitude + "0"
                    }
                    text += "\(store),\(first.adding(days: offset).iso8601),\(written),3,4\n"
                }
            }
            // Every key of [first, last] is in this round's file, which replaces earlier rounds' rows there.
            let path = try copy(text, named: "sales_audit_random_\(round).csv")
            XCTAssertEqual(ingest("", as: .salesAudit, path: path, options: IngestOptions(force: true)).status, .ok)
            let last = first.adding(days: days - 1)
            let measures = try warehouse.measures(from: first, through: last).values.reduce(MeasureSums(), +)
            XCTAssertEqual(measures.salesCents, Int128(expected), "round \(round)")
            let stored = try warehouse.read { db in
                try Int64.fetchOne(db, sql: "SELECT sum(total_sales_cents) FROM store_report WHERE date <= ?", arguments: [last.iso8601])
            }
            XCTAssertEqual(stored, expected)
        }
    }

    func testSHA256KnownVectors() throws {
        XCTAssertEqual(try SHA256().finalize(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let abc = try SHA256()
        try Array("abc".utf8).withUnsafeBytes { try abc.update($0) }
        XCTAssertEqual(try abc.finalize(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = try SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        try million.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 999) {
                try long.update(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 999, bytes.count)]))
            }
        }
        XCTAssertEqual(try long.finalize(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
