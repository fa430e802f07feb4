import GRDB
import TestSupport
@testable import Warehouse
import XCTest

final class MigrationTests: XCTestCase {
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
        let warehouse = try Warehouse(path: path)
        try warehouse.read { db in
            XCTAssertEqual(try Double.fetchOne(db, sql: "SELECT total_sales FROM store_report WHERE store_code = '08'"), 100)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT day_0 FROM outbound_call_report"), 5)
            let definition = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'store_report'")
            XCTAssertTrue(definition?.contains("PRIMARY KEY (date, store_code)") == true, definition ?? "")
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_v2'"), 0)
        }
    }
}
