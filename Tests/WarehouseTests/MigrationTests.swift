import GRDB
import TestSupport
import XCTest

@testable import Warehouse

final class MigrationTests: XCTestCase {
    /// New warehouses have 64 KiB pages (a bulk ingest writes a quarter as many as at 16 KiB);
    /// a file made with other pages keeps them when it is opened and migrated.
    func testNewWarehousesHave64KiBPagesAndOlderFilesKeepTheirs() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
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
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
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
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
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
}
