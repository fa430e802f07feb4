import CivilCalendar
import Feeds
import GRDB
import TestSupport
import XCTest

@testable import Warehouse

/// Store-month rollups (SPEC section 13): kept in step by every ingest, equal to a full
/// recomputation, rebuilt on demand, and built for warehouses that predate them.
final class RollupTests: WarehouseTestCase {
    /// Runs `body` on a new warehouse of each backend holding two stores.
    private func onEachBackend(_ body: () throws -> Void) throws {
        try onEachNewWarehouse { _ in
            ingest("stores.csv", "code,name,region\n08,Natick,East\n10,Framingham,East\n", as: .stores)
            try body()
        }
    }

    @discardableResult
    private func ingest(_ name: String, _ text: String, as feed: FeedID) -> IngestOutcome {
        let path = (try? TestPaths.write(Array(text.utf8), named: name, in: directory)) ?? name
        let outcome = SampleWarehouse.ingest(path, as: feed, into: warehouse)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
        return outcome
    }

    private func measures(_ start: String, _ end: String, rollups: Bool) throws -> [StoreMonth: MeasureSums] {
        warehouse.usesRollups = rollups
        defer { warehouse.usesRollups = true }
        return try warehouse.measures(
            from: try XCTUnwrap(CivilDate(iso8601: start)), through: try XCTUnwrap(CivilDate(iso8601: end)))
    }

    /// Random days of every feed, re-sent with corrections; every range agrees both ways.
    func testIngestsKeepRollupsEqualToARecomputation() throws {
        try onEachBackend {
            var generator = SystemRandomNumberGenerator()
            for round in 0..<3 {
                var sales = "Store,Date,Net Sales,Transactions,Items,CCP %,GP %\n"
                var calls = "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n"
                var credit = "Store,Date\n"
                var day = CivilDate(year: 2024, month: 12, day: 1)
                for _ in 0..<90 {
                    for store in ["08", "10"] where Bool.random(using: &generator) {
                        let ccp =
                            Bool.random(using: &generator) ? "0.\(Int.random(in: 100...900, using: &generator))" : ""
                        sales +=
                            "\(store),\(day.iso8601),\(Int.random(in: -100...99_999, using: &generator)).\(Int.random(in: 10...99, using: &generator)),\(Int.random(in: 1...40, using: &generator)),\(Int.random(in: 1...60, using: &generator)),\(ccp),0.5\n"
                        if day.weekdayIndex == 2 {
                            calls +=
                                "\(store),\(day.iso8601),"
                                + (0..<7).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined(
                                    separator: ",") + "\n"
                        }
                        for _ in 0..<Int.random(in: 0...2, using: &generator) { credit += "\(store),\(day.iso8601)\n" }
                    }
                    day = day.adding(days: 1)
                }
                ingest("sales_audit_\(round).csv", sales, as: .salesAudit)
                ingest("calls_\(round).csv", calls, as: .outboundCalls)
                ingest("credit_\(round).csv", credit, as: .creditApps)
                XCTAssertEqual(try warehouse.checkRollups(), [], "round \(round)")
                for (start, end) in [
                    ("2024-12-01", "2025-02-28"), ("2024-12-15", "2025-02-10"), ("2025-01-01", "2025-01-31"),
                    ("2024-11-01", "2025-03-31"),
                ] {
                    XCTAssertEqual(
                        try measures(start, end, rollups: true), try measures(start, end, rollups: false),
                        "\(start)…\(end)")
                }
            }
            let months = Int(try warehouse.integer("SELECT count(*) FROM store_month_rollup") ?? 0)
            XCTAssertGreaterThanOrEqual(
                months, 6, "two stores × December to February, and March when a late week's calls reach it")
        }
    }

    /// A file of new keys adds its sums to the month's existing rollup rather than recomputing it.
    func testNewDaysAddToTheirMonthsRollup() throws {
        try onEachBackend {
            ingest(
                "sales_audit_a.csv", "Store,Date,Net Sales,Transactions,Items,GP %\n08,2025-01-05,100.10,1,1,50%\n",
                as: .salesAudit)
            ingest(
                "sales_audit_b.csv",
                "Store,Date,Net Sales,Transactions,Items,GP %\n08,2025-01-06,0.01,1,2,\n10,2025-01-06,0,0,0,\n",
                as: .salesAudit)
            ingest(
                "calls.csv", "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n08,2025-01-29,1,0,0,0,0,0,4\n",
                as: .outboundCalls)
            ingest("reviews.csv", "Store,Week,Reviews\n10,2025-02-26,3\n", as: .birdeyeReviews)
            XCTAssertEqual(try warehouse.checkRollups(), [])
            let january = try XCTUnwrap(
                try warehouse.storedRollups(months: ["2025-01"])[StoreMonth(store: "08", month: "2025-01")])
            XCTAssertEqual(january.salesCents, 10_011)
            XCTAssertEqual(january.gpSalesCents, 10_010)
            XCTAssertEqual(january.calls, 1, "Monday 01-27; Sunday's 4 calls fall on 02-02")
        }
    }

    func testCheckFindsATamperedRollupAndRebuildMendsIt() throws {
        try onEachBackend {
            ingest(
                "sales_audit.csv",
                "Store,Date,Net Sales,Transactions,Items\n08,2025-01-05,100,1,1\n10,2025-02-05,50,1,1\n",
                as: .salesAudit)
            XCTAssertEqual(try warehouse.checkRollups(), [])
            try warehouse.backend.write { session in
                try session.execute(
                    "UPDATE store_month_rollup SET sales_cents = sales_cents + 1 WHERE store_code = '08'")
                try session.execute("DELETE FROM store_month_rollup WHERE store_code = '10'")
            }
            let differences = try warehouse.checkRollups()
            XCTAssertEqual(
                differences.map(\.description),
                ["rollup 08 2025-01 differs from a recomputation", "rollup 10 2025-02 missing"])
            XCTAssertEqual(try warehouse.rebuildRollups(), 2)
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    func testAFailedFileLeavesTheRollupsAsTheyWere() throws {
        try onEachBackend {
            ingest(
                "sales_audit.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-01-05,100,1,1\n", as: .salesAudit)
            let before = try measures("2025-01-01", "2025-01-31", rollups: true)
            let path = try TestPaths.write(
                Array("Store,Date,Net Sales,Transactions,Items\n08,2025-01-06,100,1,1\n99,2025-01-06,1,1,1\n".utf8),
                named: "sales_audit_bad.csv", in: directory)
            XCTAssertEqual(SampleWarehouse.ingest(path, as: .salesAudit, into: warehouse, threshold: 0).status, .failed)
            XCTAssertEqual(try measures("2025-01-01", "2025-01-31", rollups: true), before)
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    func testMigrationBuildsRollupsForAnExistingWarehouse() throws {
        let path = directory.appendingPathComponent("v4.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try Warehouse.migrator.migrate(queue, upTo: "v4: associates, vendors and categories")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO store (code, name) VALUES ('08', 'Natick')")
                try db.execute(
                    sql: """
                        INSERT INTO store_report (store_code, date, total_sales_cents, total_transactions, total_items, gp_pct_millionths)
                        VALUES ('08', '2025-01-31', 10000, 2, 3, 500000), ('08', '2025-02-01', 5000, 1, 1, NULL);
                        INSERT INTO outbound_call_report (store_code, week_start, total_calls) VALUES ('08', '2025-01-27', 7);
                        """)
            }
        }
        let migrated = try Warehouse(path: path)
        XCTAssertEqual(try migrated.checkRollups(), [])
        let rollups = try migrated.storedRollups(months: nil)
        XCTAssertEqual(rollups[StoreMonth(store: "08", month: "2025-01")]?.salesCents, 10_000)
        XCTAssertEqual(rollups[StoreMonth(store: "08", month: "2025-01")]?.gpWeighted, 500_000 * 10_000)
        XCTAssertEqual(
            rollups[StoreMonth(store: "08", month: "2025-01")]?.calls, 7,
            "a week total counts in its week start's month")
        XCTAssertEqual(rollups[StoreMonth(store: "08", month: "2025-02")]?.salesCents, 5000)
    }
}
