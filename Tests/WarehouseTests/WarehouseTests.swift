import CivilCalendar
import Feeds
import SheetFixtures
import SheetStream
import TestSupport
import Warehouse
import XCTest

/// Storage semantics (SPEC sections 5 and 14), each test run on SQLite and on PostgreSQL.
final class WarehouseTests: XCTestCase {
    private var directory: URL!
    private var warehouse: Warehouse!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    /// Runs `body` on a new warehouse of each backend holding the small store directory.
    private func onEachBackend(_ body: () throws -> Void) throws {
        try TestWarehouses.forEachBackend(in: directory) { location in
            warehouse = try Warehouse(location: location)
            XCTAssertEqual(ingest("stores_small.csv", as: .stores).status, .ok)
            try body()
        }
    }

    private func count(_ table: String) throws -> Int64? { try warehouse.integer("SELECT count(*) FROM \(table)") }

    /// Each row of `sql` as its columns joined by spaces, `-` for NULL.
    private func storedRows(_ sql: String, columns: Int) throws -> [String] {
        try warehouse.rows(sql, columns: columns).map { $0.map { $0 ?? "-" }.joined(separator: " ") }
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
                definition: FeedCatalog.definition(feed), directory: try warehouse.storeDirectory(),
                options: FeedOptions())
            return PreparedFeed(feed: feed) { emit in
                var written = 0
                return try reader.read(spreadsheet) { record, row in
                    if let failAfter, written == failAfter { throw SimulatedCrash() }
                    try emit(record, row)
                    written += 1
                }
            }
        }
    }

    private struct SimulatedCrash: Error {}

    private func copy(_ text: String, named name: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    /// The rows of the reference tables and two feed tables as text, for exact comparisons.
    private func dump() throws -> [[String?]] {
        let tables = [
            ("store", ["code", "name", "region", "status"]),
            ("store_alias", ["alias_key", "alias", "store_code"]),
            ("goal", ["period", "scope", "metric", "date", "target"]),
            (
                "store_report",
                [
                    "date", "store_code", "total_sales_cents", "total_transactions", "total_items",
                    "ccp_pct_millionths",
                    "gp_pct_millionths", "upt", "ads_cents", "ingest_run_id",
                ]
            ),
            ("credit_report", ["date", "store_code", "total_applications", "ingest_run_id"]),
        ]
        return try tables.flatMap { table, columns in
            try warehouse.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY 1, 2", columns: columns.count)
        }
    }

    func testUpsertCountsAndRecomputedValues() throws {
        try onEachBackend {
            let outcome = ingest("credit_small.csv", as: .creditApps)
            XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
            XCTAssertEqual(outcome.counts, UpsertCounts(inserted: 2, updated: 0, unchanged: 0))
            XCTAssertEqual(
                ingest("sales_audit_small.csv", as: .salesAudit, options: IngestOptions(rejectThreshold: 0.5)).counts
                    .inserted, 4)
            let row = try warehouse.rows(
                "SELECT total_sales_cents, upt, ads_cents, ccp_pct_millionths FROM store_report WHERE store_code = '08' AND date = '2025-07-14'",
                columns: 4)
            XCTAssertEqual(row, [["123450", "2.5", "12345", "452000"]])
        }
    }

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

    func testCorrectedResendReplacesValues() throws {
        try onEachBackend {
            let original = try copy(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n",
                named: "sales_audit_a.csv")
            let corrected = try copy(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,110,2,3\n10,2025-07-14,50,1,1\n",
                named: "sales_audit_b.csv")
            XCTAssertEqual(ingest("", as: .salesAudit, path: original).counts, UpsertCounts(inserted: 2))
            XCTAssertEqual(
                ingest("", as: .salesAudit, path: corrected).counts, UpsertCounts(inserted: 0, updated: 1, unchanged: 1)
            )
            XCTAssertEqual(
                try warehouse.integer("SELECT total_sales_cents FROM store_report WHERE store_code = '08'"), 11_000)
            XCTAssertEqual(try count("store_report"), 2)
        }
    }

    /// A key twice in one file: the later row updates the earlier, as row-by-row upserts would
    /// (PostgreSQL's plain insert of the batch meets the key twice and merges it instead).
    func testAKeyRepeatedInOneFileUpdatesInOrder() throws {
        try onEachBackend {
            let path = try copy(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n08,2025-07-14,110,2,3\n08,2025-07-14,110,2,3\n",
                named: "sales_audit_repeats.csv")
            XCTAssertEqual(
                ingest("", as: .salesAudit, path: path).counts, UpsertCounts(inserted: 2, updated: 1, unchanged: 1))
            XCTAssertEqual(
                try warehouse.integer("SELECT total_sales_cents FROM store_report WHERE store_code = '08'"), 11_000)
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    /// Vendor keys and categories longer than seven bytes that share their first seven (long
    /// vendor numbers, "Clothing - Men" and "Clothing - Women") are told apart: each is summed
    /// on its own, on both backends (a key of up to seven bytes is compared packed into an
    /// integer, a longer one as text).
    func testMerchKeysThatShareTheirFirstSevenBytesAreSummedApart() throws {
        let path = try copy(
            """
            Store,Date,Vendor #,Vendor Name,Category,Net Sales,Units
            08,2025-07-01,10000001,North,Clothing - Men,100,1
            08,2025-07-01,10000002,South,Clothing - Women,20,2
            08,2025-07-02,10000001,North,Clothing - Men,3,3

            """, named: "merch_long_keys.csv")
        try onEachBackend {
            XCTAssertEqual(ingest("", as: .merchSales, path: path).counts, UpsertCounts(inserted: 3))
            let july1 = CivilDate(year: 2025, month: 7, day: 1)
            let july2 = CivilDate(year: 2025, month: 7, day: 2)
            for (dimension, first, second) in [
                (MerchDimension.vendor, "10000001", "10000002"), (.category, "Clothing - Men", "Clothing - Women"),
            ] {
                let sums = try warehouse.merchMeasures(from: july1, through: july2, by: dimension)
                XCTAssertEqual(sums.count, 2, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: first)]?.salesCents, 10_300, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: second)]?.salesCents, 2_000, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: first)]?.items, 4, "\(dimension)")
            }
        }
    }

    /// A vendor and a category written precomposed ("Café", U+00E9) in one row and decomposed
    /// ("Cafe" + U+0301) in another are two keys to the warehouse (it compares bytes) and one
    /// to the report (Swift compares strings by canonical equivalence): the report adds their
    /// sales rather than keeping one row's, whether the key is short enough to be packed or not.
    func testMerchKeysSpelledTwoUnicodeWaysAreAddedNotDropped() throws {
        let (nfc, nfd) = ("Caf\u{E9}", "Cafe\u{301}")
        let path = try copy(
            "Store,Date,Vendor Name,Category,Net Sales,Units\n"
                + "08,2025-07-01,\(nfc),\(nfc) Paris,100,1\n"
                + "08,2025-07-01,\(nfd),\(nfd) Paris,50,1\n", named: "merch_nfc_nfd.csv")
        try onEachBackend {
            XCTAssertEqual(ingest("", as: .merchSales, path: path).counts, UpsertCounts(inserted: 2))
            let july1 = CivilDate(year: 2025, month: 7, day: 1)
            for dimension in [MerchDimension.vendor, .category] {
                let sums = try warehouse.merchMeasures(from: july1, through: july1, by: dimension)
                XCTAssertEqual(sums.count, 1, "\(dimension)")
                XCTAssertEqual(sums.values.first?.salesCents, 15_000, "\(dimension)")
                XCTAssertEqual(sums.values.first?.items, 2, "\(dimension)")
            }
        }
    }

    /// A first load whose dates ascend per store for its first batches (inserted plainly) and
    /// then go back to a key written batches before: that row updates it, as an upsert, and so
    /// do the batches after; the counts, the values and the rollups are a row-by-row upsert's.
    func testAFirstLoadWhoseDatesGoBackAfterSomeBatchesUpdatesAsRowByRow() throws {
        let dates = (0..<300).map { CivilDate(daysSinceEpoch: 20_000 + $0).iso8601 }
        var file = "Store,Date,Net Sales,Transactions,Items\n"
        for date in dates { file += "08,\(date),1.00,1,1\n10,\(date),2.00,1,1\n" }
        file += "10,\(dates[3]),5.00,1,1\n08,\(dates[299]),1.00,1,1\n"
        let path = try copy(file, named: "sales_audit_back.csv")
        try onEachBackend {
            XCTAssertEqual(
                ingest("", as: .salesAudit, path: path).counts, UpsertCounts(inserted: 600, updated: 1, unchanged: 1))
            XCTAssertEqual(
                try warehouse.integer(
                    "SELECT total_sales_cents FROM store_report WHERE store_code = '10' AND date = '\(dates[3])'"), 500)
            XCTAssertEqual(try warehouse.integer("SELECT sum(total_sales_cents) FROM store_report"), 90_300)
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    /// Keys repeated within a file over rows already there, each key's rows in any order of
    /// equal and different values: the counts, the values, the provenance and the history are
    /// those of row-by-row upserts, on both backends (PostgreSQL merges the staged rows in one
    /// statement, judging each against the one before it).
    func testRepeatedKeysOverExistingRowsCountAndKeepWhatRowByRowWould() throws {
        var seen: [String] = []
        try onEachBackend {
            let base = try copy(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n08,2025-07-15,70,1,1\n",
                named: "sales_audit_base.csv")
            XCTAssertEqual(ingest("", as: .salesAudit, path: base).counts, UpsertCounts(inserted: 3))
            let repeats = try copy(
                """
                Store,Date,Net Sales,Transactions,Items
                08,2025-07-14,100,2,3
                08,2025-07-14,120,2,3
                10,2025-07-14,60,1,1
                10,2025-07-14,50,1,1
                08,2025-07-15,70,1,1
                08,2025-07-15,80,1,1
                08,2025-07-15,70,1,1
                10,2025-07-15,30,1,1
                10,2025-07-15,30,1,1

                """, named: "sales_audit_repeats.csv")
            let outcome = ingest("", as: .salesAudit, path: repeats)
            XCTAssertEqual(outcome.counts, UpsertCounts(inserted: 1, updated: 5, unchanged: 3))
            let rows = try storedRows(
                "SELECT store_code, date, total_sales_cents, source_row FROM store_report ORDER BY date, store_code",
                columns: 4)
            XCTAssertEqual(
                rows,
                ["08 2025-07-14 12000 3", "10 2025-07-14 5000 5", "08 2025-07-15 7000 8", "10 2025-07-15 3000 9"])
            let history = try storedRows(
                "SELECT store_code, date, total_sales_cents FROM store_report_history ORDER BY date, store_code",
                columns: 3)
            // The earlier run's values that this run replaced, once per key.
            XCTAssertEqual(history, ["08 2025-07-14 10000", "10 2025-07-14 5000", "08 2025-07-15 7000"])
            XCTAssertEqual(try warehouse.checkRollups(), [])
            seen.append((rows + history).joined(separator: "; "))
        }
        XCTAssertEqual(Set(seen).count, 1, "both backends keep the same")
    }

    /// A key's rows that differ only in an empty optional column (NULL) and a filled one: NULL
    /// equals NULL and differs from a value, row by row, on both backends (PostgreSQL judges
    /// them with `IS DISTINCT FROM` over its window of the key's rows).
    func testRepeatedKeysThroughEmptyValuesCountAsRowByRow() throws {
        var seen: [String] = []
        try onEachBackend {
            let base = try copy(
                "Store,Date,Net Sales,Transactions,Items,CCP %\n08,2025-07-14,100,2,3,\n", named: "sales_audit_base.csv"
            )
            XCTAssertEqual(ingest("", as: .salesAudit, path: base).counts, UpsertCounts(inserted: 1))
            let repeats = try copy(
                """
                Store,Date,Net Sales,Transactions,Items,CCP %
                08,2025-07-14,100,2,3,
                08,2025-07-14,100,2,3,5
                08,2025-07-14,100,2,3,
                08,2025-07-14,100,2,3,
                10,2025-07-14,50,1,1,
                10,2025-07-14,50,1,1,7

                """, named: "sales_audit_repeats.csv")
            XCTAssertEqual(
                ingest("", as: .salesAudit, path: repeats).counts, UpsertCounts(inserted: 1, updated: 3, unchanged: 2))
            let rows = try storedRows(
                "SELECT store_code, ccp_pct_millionths, source_row FROM store_report ORDER BY store_code", columns: 3)
            XCTAssertEqual(rows.count, 2)
            XCTAssertEqual(rows.first, "08 - 4", "the last change: row 4 emptied it again; row 5 left it")
            XCTAssertEqual(rows.last?.hasPrefix("10 "), true)
            XCTAssertEqual(rows.last?.hasSuffix(" 7"), true, "row 7 filled it")
            XCTAssertNotEqual(rows.last?.contains(" - "), true)
            let history = try storedRows(
                "SELECT store_code, ccp_pct_millionths, source_row FROM store_report_history", columns: 3)
            XCTAssertEqual(history, ["08 - 2"], "the earlier run's row, once")
            seen.append((rows + history).joined(separator: "; "))
        }
        XCTAssertEqual(Set(seen).count, 1, "both backends keep the same")
    }

    /// A file longer than PostgreSQL's batches whose keys repeat all over it, some of them over
    /// rows already there, with values that often repeat too: the counts and every row's values
    /// and source row are those of a row-by-row model of the upserts, on both backends (on
    /// PostgreSQL the batches are staged and merged at once, so repeats cross batches).
    func testKeysRepeatedAcrossBatchesEndAsRowByRowUpserts() throws {
        let dates = (0..<1_000).map { CivilDate(daysSinceEpoch: 20_000 + $0).iso8601 }
        let keys = ["08", "10"].flatMap { store in dates.map { (store: store, date: $0) } }
        var base = "Store,Date,Net Sales,Transactions,Items\n"
        var model: [String: (cents: Int, row: Int)] = [:]
        for (index, key) in keys.enumerated() where index % 2 == 0 {
            base += "\(key.store),\(key.date),1.00,1,1\n"
            model[key.store + key.date] = (100, 0)
        }
        var random = SplitMix(seed: 23)
        var repeats = "Store,Date,Net Sales,Transactions,Items\n"
        var expected = UpsertCounts()
        for row in 2..<70_002 {
            let key = keys[Int(random.next() % UInt64(keys.count))]
            let cents = 100 * Int(1 + random.next() % 3)
            repeats += "\(key.store),\(key.date),\(cents / 100).00,1,1\n"
            switch model[key.store + key.date] {
            case nil: expected.inserted += 1
            case let stored? where stored.cents == cents: expected.unchanged += 1
            default: expected.updated += 1
            }
            if model[key.store + key.date]?.cents != cents { model[key.store + key.date] = (cents, row) }
        }
        let basePath = try copy(base, named: "sales_audit_base.csv")
        let repeatsPath = try copy(repeats, named: "sales_audit_repeats.csv")
        try onEachBackend {
            XCTAssertEqual(ingest("", as: .salesAudit, path: basePath).counts, UpsertCounts(inserted: 1_000))
            XCTAssertEqual(ingest("", as: .salesAudit, path: repeatsPath).counts, expected)
            var rows: [String: (cents: Int, row: Int)] = [:]
            for row in try warehouse.rows(
                "SELECT store_code, date, total_sales_cents, source_row FROM store_report", columns: 4)
            {
                rows[(row[0] ?? "") + (row[1] ?? "")] = (Int(row[2] ?? "") ?? -1, Int(row[3] ?? "") ?? -1)
            }
            XCTAssertEqual(rows.count, model.count)
            // The base file's rows that no repeat changed keep their source row (2 onwards).
            let mismatched = model.filter { key, value in
                rows[key].map { $0.cents != value.cents || (value.row != 0 && $0.row != value.row) } ?? true
            }
            XCTAssertEqual(mismatched.count, 0, "\(mismatched.prefix(3))")
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

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

    func testStoreDirectoryRoundTripAndGoals() throws {
        try onEachBackend {
            let stores = try warehouse.stores()
            XCTAssertEqual(stores.map(\.code), ["08", "10"])
            XCTAssertEqual(stores[0].aliases.sorted(), ["Hannoush Jewelers - Natick", "Natick Mall"])
            let goals = ingest("goals_small.csv", as: .goals, options: IngestOptions(rejectThreshold: 1))
            XCTAssertEqual(goals.counts.inserted, 3, goals.error ?? "")
            let daily = try warehouse.rows("SELECT target FROM goal WHERE date = '2025-07-14'", columns: 1)
            XCTAssertEqual(daily.first?.first?.flatMap { Double($0) }, 5000)
        }
    }

    func testWeeklyTablesKeepDailyCountsInColumns() throws {
        try onEachBackend {
            XCTAssertEqual(ingest("calls_weekly_small.csv", as: .outboundCalls).counts.inserted, 2)
            let days = try warehouse.rows(
                "SELECT total_calls, day_0, day_1, day_2, day_3, day_4, day_5, day_6 FROM outbound_call_report WHERE store_code = '08'",
                columns: 8)
            XCTAssertEqual(days, [["28", "1", "2", "3", "4", "5", "6", "7"]])
            XCTAssertEqual(ingest("birdeye_weekly_small.csv", as: .birdeyeReviews).counts.inserted, 1)
            let reviews = try warehouse.rows("SELECT review_count, day_0 FROM birdeye_report", columns: 2)
            XCTAssertEqual(reviews, [["7", nil]], "a weekly summary has no per-day counts")
        }
    }

    /// Property: for random sets of cent amounts, written in the forms exports use, the
    /// warehouse's sums equal an independent integer sum, to the cent.
    func testMoneySumsEqualAnIndependentIntegerSum() throws {
        try onEachBackend {
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
                let stored = try warehouse.integer(
                    "SELECT sum(total_sales_cents) FROM store_report WHERE date <= ?", [last.iso8601])
                XCTAssertEqual(stored, expected)
            }
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
