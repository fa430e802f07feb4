import GRDB
import XCTest

@testable import Warehouse

/// The pre-update hook tells an upsert's inserts from its updates in a WITHOUT ROWID table, as
/// the table's growth did, counts nothing a trigger inserts elsewhere, and is off afterwards.
final class SQLiteInsertCounterTests: XCTestCase {
    func testTheInsertsOfOneStatementIntoOneTable() throws {
        XCTAssertTrue(SQLiteInsertCounter.isAvailable, "Debian's SQLite has the pre-update hook")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE day (store TEXT NOT NULL, date TEXT NOT NULL, sales INTEGER NOT NULL,
                        PRIMARY KEY (date, store)) WITHOUT ROWID;
                    CREATE TABLE day_history (store TEXT, date TEXT, sales INTEGER);
                    CREATE TRIGGER day_history AFTER UPDATE ON day
                    BEGIN INSERT INTO day_history VALUES (OLD.store, OLD.date, OLD.sales); END;
                    INSERT INTO day VALUES ('01', '2026-01-01', 10), ('02', '2026-01-01', 20);
                    """)
            let connection = try XCTUnwrap(db.sqliteConnection)
            func inserts(into table: String, _ sql: String) throws -> Int? {
                try SQLiteInsertCounter.inserts(into: table, on: connection) { try db.execute(sql: sql) }
            }
            let upsert = """
                INSERT INTO day VALUES ('01', '2026-01-01', 11), ('02', '2026-01-01', 20), ('03', '2026-01-01', 30),
                    ('04', '2026-01-02', 40), ('04', '2026-01-02', 41)
                ON CONFLICT(date, store) DO UPDATE SET sales = excluded.sales WHERE sales IS NOT excluded.sales
                """
            // 01 changed, 02 unchanged, 03 new, 04 new and then changed in the same statement.
            XCTAssertEqual(try inserts(into: "day", upsert), 2)
            XCTAssertEqual(db.changesCount, 4)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_history"), 2, "the trigger ran")
            XCTAssertEqual(try inserts(into: "day_history", "INSERT INTO day VALUES ('05', '2026-01-03', 50)"), 0)
            // The hook is off between calls: a statement outside them counts nowhere.
            try db.execute(sql: "INSERT INTO day VALUES ('06', '2026-01-03', 60)")
            XCTAssertEqual(try inserts(into: "day", "INSERT INTO day VALUES ('07', '2026-01-03', 70)"), 1)
        }
    }
}
