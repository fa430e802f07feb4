import GRDB
import TestSupport
import XCTest

@testable import Warehouse

final class MigrationTests: WarehouseTestCase {
    /// New warehouses have 64 KiB pages (a bulk ingest writes a quarter as many as at 16 KiB);
    /// a file made with other pages keeps them when it is opened and migrated.
    func testNewWarehousesHave64KiBPagesAndOlderFilesKeepTheirs() throws {
        let new = directory.appendingPathComponent("new.sqlite").path
        _ = try Warehouse(path: new)
        XCTAssertEqual(try DatabaseQueue(path: new).read { try Int.fetchOne($0, sql: "PRAGMA page_size") }, 65536)

        let old = directory.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: old)
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA page_size = 16384") }
            try Warehouse.migrator.migrate(queue, upTo: "v1: feed tables")
        }
        _ = try Warehouse(path: old)
        XCTAssertEqual(try DatabaseQueue(path: old).read { try Int.fetchOne($0, sql: "PRAGMA page_size") }, 16384)
    }

    /// A warehouse created before the feed tables were keyed date first keeps its rows.
    func testFeedTablesAreRekeyedDateFirstWithTheirRows() throws {
        let path = directory.appendingPathComponent("old.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try Warehouse.migrator.migrate(queue, upTo: "v1: feed tables")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO store (code, name) VALUES ('08', 'Natick')")
                try db.execute(
                    sql: """
                        INSERT INTO store_report (store_code, date, total_sales, total_transactions, total_items)
                        VALUES ('08', '2025-07-14', 100, 2, 3);
                        INSERT INTO outbound_call_report (store_code, week_start, total_calls, day_0) VALUES ('08', '2025-07-14', 5, 5);
                        """)
            }
        }
        _ = try Warehouse(path: path)
        try DatabaseQueue(path: path).read { db in
            XCTAssertEqual(
                try Int64.fetchOne(db, sql: "SELECT total_sales_cents FROM store_report WHERE store_code = '08'"),
                10_000)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT day_0 FROM outbound_call_report"), 5)
            let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'store_report'")
            XCTAssertTrue(definition?.contains("PRIMARY KEY (date, store_code)") == true, definition ?? "")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v2'"), 0)
        }
    }

    /// A warehouse written by the schema before exact money (REAL dollars and fractions) is
    /// converted in place: cents and millionths, rounded half away from zero, every row kept.
    func testMoneyAndPercentsAreConvertedToIntegersInPlace() throws {
        let path = directory.appendingPathComponent("v2.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try Warehouse.migrator.migrate(queue, upTo: "v2: feed tables keyed date first")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO store (code, name) VALUES ('08', 'Natick')")
                try db.execute(
                    sql: """
                        INSERT INTO store_report (store_code, date, total_sales, total_transactions, total_items, ccp_pct, gp_pct, upt, ads, ingest_run_id)
                        VALUES ('08', '2025-07-14', 251137.91000000006, 3, 7, 0.452, 0.5123455, 2.3333333333333335, 83712.63666666667, 5),
                               ('08', '2025-07-15', -20.005, 1, 1, NULL, NULL, 1, -20.005, 5);
                        """)
            }
        }
        _ = try Warehouse(path: path)
        let rows = try DatabaseQueue(path: path).read { db in
            try GRDB.Row.fetchAll(
                db,
                sql:
                    "SELECT total_sales_cents, ccp_pct_millionths, gp_pct_millionths, upt, ads_cents, ingest_run_id FROM store_report ORDER BY date"
            )
        }
        XCTAssertEqual(rows.count, 2)
        XCTAssertEqual(rows[0]["total_sales_cents"], 25_113_791 as Int64)
        XCTAssertEqual(rows[0]["ccp_pct_millionths"], 452_000 as Int64)
        XCTAssertEqual(rows[0]["gp_pct_millionths"], 512_346 as Int64, "half away from zero")
        XCTAssertEqual(rows[0]["upt"], 2.3333333333333335)
        XCTAssertEqual(rows[0]["ads_cents"], 8_371_264 as Int64)
        XCTAssertEqual(rows[0]["ingest_run_id"], 5 as Int64)
        XCTAssertEqual(rows[1]["total_sales_cents"], -2001 as Int64)
        XCTAssertNil(rows[1]["ccp_pct_millionths"] as Int64?)
        try DatabaseQueue(path: path).read { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA foreign_key_check"), [])
        }
    }

    /// A v12 warehouse with values keeps every one of them through "v13: optional sales
    /// measures": the rows, their history and rollups; the counts become nullable, the history
    /// trigger still keeps replaced rows (a NULL among them), and the new rollup sums equal the
    /// sums they narrow.
    func testAV12WarehouseKeepsEveryValueAndItsCountsBecomeNullable() throws {
        let path = directory.appendingPathComponent("v12.sqlite").path
        let rows = """
            SELECT store_code, date, total_sales_cents, total_transactions, total_items, ccp_pct_millionths,
                gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row
            FROM store_report ORDER BY date, store_code
            """
        let history = "SELECT total_sales_cents, total_items, replaced_by_run FROM store_report_history ORDER BY rowid"
        var before: [GRDB.Row] = []
        do {
            let queue = try DatabaseQueue(path: path)
            try Warehouse.migrator.migrate(queue, upTo: V12RunActors.name)
            try queue.write { db in
                try db.execute(
                    sql: """
                        INSERT INTO store (code, name) VALUES ('08', 'Natick'), ('10', 'Framingham');
                        INSERT INTO store_report VALUES
                            ('08', '2025-07-14', 123456, 10, 25, 452000, NULL, 2.5, 12346, 3, 5),
                            ('10', '2025-07-14', -2000, 1, 1, NULL, 510000, 1, -2000, 3, 6),
                            ('08', '2025-07-15', 50000, 2, 3, NULL, NULL, 1.5, 25000, 4, 2);
                        UPDATE store_report SET total_sales_cents = 60000, ingest_run_id = 5 WHERE date = '2025-07-15';
                        INSERT INTO store_month_rollup VALUES
                            ('08', '2025-07', 183456, 12, 28, '11300000', 25, '0', 0, 1, 2, 3, 4);
                        """)
                before = try GRDB.Row.fetchAll(db, sql: rows)
            }
        }
        let warehouse = try Warehouse(path: path)
        XCTAssertEqual(
            warehouse.appliedMigrations,
            Array(Warehouse.migrationNames.drop { $0 != V13OptionalSalesMeasures.name }), "v13 and every later step")
        try DatabaseQueue(path: path).write { db in
            XCTAssertEqual(try GRDB.Row.fetchAll(db, sql: rows), before, "every value kept")
            XCTAssertEqual(
                try GRDB.Row.fetchAll(db, sql: history).map { [$0[0], $0[1], $0[2]] as [Int64] }, [[50000, 3, 5]])
            let columns = Warehouse.rollupColumns.dropFirst(2).map { "CAST(\($0) AS TEXT)" }
            let rollup = try XCTUnwrap(
                try GRDB.Row.fetchOne(db, sql: "SELECT \(columns.joined(separator: ", ")) FROM store_month_rollup"))
            XCTAssertEqual(
                (0..<rollup.count).map { rollup[$0] as String },
                ["183456", "12", "28", "11300000", "25", "0", "0", "1", "2", "3", "4", "0", "0", "0"])
            let nullable = try GRDB.Row.fetchAll(
                db, sql: "SELECT name, \"notnull\" FROM pragma_table_info('store_report') ORDER BY cid")
            XCTAssertEqual(
                nullable.filter { ($0[1] as Int64) == 0 }.map { $0[0] as String },
                [
                    "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths", "upt", "ads_cents",
                    "ingest_run_id", "source_row", "closed",
                ])
            XCTAssertEqual(
                try String.fetchOne(
                    db, sql: "SELECT sql FROM sqlite_master WHERE name = 'store_report' AND type = 'table'")?
                    .contains("PRIMARY KEY (date, store_code)\n) WITHOUT ROWID"), true)
            try db.execute(
                sql: """
                    UPDATE store_report SET total_items = NULL, ingest_run_id = 6 WHERE date = '2025-07-15';
                    UPDATE store_report SET total_items = 9, ingest_run_id = 7 WHERE date = '2025-07-15';
                    """)
            XCTAssertEqual(
                try GRDB.Row.fetchAll(db, sql: history).map { $0[1] as Int64? }, [3, 3, nil],
                "the trigger keeps replaced rows, a NULL among them")
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA foreign_key_check"), [])
        }
    }
}
