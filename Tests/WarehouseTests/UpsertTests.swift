import CivilCalendar
import Feeds
import SheetFixtures
import Warehouse
import XCTest

/// Upserts by dedup key (SPEC section 5), each test run on SQLite and on PostgreSQL: the counts, the
/// values, the provenance and the history are those of row-by-row upserts, however keys repeat.
final class UpsertTests: SmallStoresTestCase {
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

    func testCorrectedResendReplacesValues() throws {
        try onEachBackend {
            let original = try write(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n",
                named: "sales_audit_a.csv")
            let corrected = try write(
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
            let path = try write(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n08,2025-07-14,110,2,3\n08,2025-07-14,110,2,3\n",
                named: "sales_audit_repeats.csv")
            XCTAssertEqual(
                ingest("", as: .salesAudit, path: path).counts, UpsertCounts(inserted: 2, updated: 1, unchanged: 1))
            XCTAssertEqual(
                try warehouse.integer("SELECT total_sales_cents FROM store_report WHERE store_code = '08'"), 11_000)
            XCTAssertEqual(try warehouse.checkRollups(), [])
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
        let path = try write(file, named: "sales_audit_back.csv")
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
            let base = try write(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n08,2025-07-15,70,1,1\n",
                named: "sales_audit_base.csv")
            XCTAssertEqual(ingest("", as: .salesAudit, path: base).counts, UpsertCounts(inserted: 3))
            let repeats = try write(
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
            let base = try write(
                "Store,Date,Net Sales,Transactions,Items,CCP %\n08,2025-07-14,100,2,3,\n", named: "sales_audit_base.csv"
            )
            XCTAssertEqual(ingest("", as: .salesAudit, path: base).counts, UpsertCounts(inserted: 1))
            let repeats = try write(
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
        let basePath = try write(base, named: "sales_audit_base.csv")
        let repeatsPath = try write(repeats, named: "sales_audit_repeats.csv")
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
}
