import CivilCalendar
import GRDB
import XCTest

@testable import Warehouse

/// The pre-update hook tells an upsert's inserts from its updates in a WITHOUT ROWID table, as
/// the table's growth does, and an update that only makes a later run a key's holder from one
/// that changes values; it counts nothing a trigger inserts elsewhere, and is off afterwards;
/// a session counts a table empty before its first upsert by growth and any other by the hook,
/// with the same counts.
final class SQLiteChangeCounterTests: XCTestCase {
    private static let schema = """
        CREATE TABLE day (date TEXT NOT NULL, store TEXT NOT NULL, sales INTEGER NOT NULL,
            PRIMARY KEY (date, store)) WITHOUT ROWID;
        CREATE TABLE day_history (date TEXT, store TEXT, sales INTEGER);
        CREATE TRIGGER day_history AFTER UPDATE ON day
        BEGIN INSERT INTO day_history VALUES (OLD.date, OLD.store, OLD.sales); END;
        """

    func testTheInsertsOfOneStatementIntoOneTable() throws {
        let counter = try XCTUnwrap(SQLiteChangeCounter.loaded, "Debian's SQLite has the pre-update hook")
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: Self.schema + "INSERT INTO day VALUES ('d1', '01', 10), ('d1', '02', 20);")
            let connection = try XCTUnwrap(db.sqliteConnection)
            func inserts(into table: String, _ sql: String) throws -> Int {
                try counter.count(in: table, tracked: [2], on: connection) { try db.execute(sql: sql) }.inserted
            }
            let upsert = """
                INSERT INTO day VALUES ('d1', '01', 11), ('d1', '02', 20), ('d1', '03', 30), ('d2', '04', 40),
                    ('d2', '04', 41)
                ON CONFLICT(date, store) DO UPDATE SET sales = excluded.sales WHERE sales IS NOT excluded.sales
                """
            // 01 changed, 02 unchanged, 03 new, 04 new and then changed in the same statement.
            XCTAssertEqual(try inserts(into: "day", upsert), 2)
            XCTAssertEqual(db.changesCount, 4)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM day_history"), 2, "the trigger ran")
            XCTAssertEqual(try inserts(into: "day_history", "INSERT INTO day VALUES ('d3', '05', 50)"), 0)
            XCTAssertEqual(try inserts(into: "DAY", "INSERT INTO day VALUES ('d3', '06', 60)"), 1, "names ignore case")
            // The hook is off between calls: a statement outside them counts nowhere (and finds
            // no stale pointer).
            try db.execute(sql: "INSERT INTO day VALUES ('d3', '07', 70)")
        }
    }

    /// A later run re-sending a key unchanged holds it: the update writes the run, and counts
    /// as unchanged (SPEC section 16); a changed and a new key count as before.
    func testAnUpdateThatKeepsTheTrackedValuesIsANewHolder() throws {
        let upsert = UpsertStatement(table: "held", key: ["key"], values: ["sales"], untracked: ["ingest_run_id"])
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE held (key TEXT PRIMARY KEY NOT NULL, sales INTEGER, ingest_run_id INTEGER) WITHOUT ROWID;
                    INSERT INTO held VALUES ('a', 10, 1), ('b', 20, 1), ('n', NULL, 1);
                    """)
            let session = SQLiteSession(db)
            var values = PendingValues(capacity: 12)
            for (key, sales) in [("a", 10), ("b", 21), ("c", 30), ("n", nil)] as [(String, Int?)] {
                values.add(key)
                values.add(sales)
                values.add(2)
            }
            try session.upsert(upsert, values, rows: 4)
            XCTAssertEqual(try session.upsertCounts(table: "held"), UpsertCounts(inserted: 1, updated: 1, unchanged: 2))
            XCTAssertEqual(try Int.fetchAll(db, sql: "SELECT DISTINCT ingest_run_id FROM held"), [2])
        }
    }

    /// Two statements of a file: a changed, an unchanged and a new row, a key new and then
    /// changed within one statement, and changed again in the next.
    func testASessionCountsByGrowthOnAnEmptyTableAndByTheHookOtherwise() throws {
        XCTAssertNotNil(SQLiteChangeCounter.loaded)
        let upsert = UpsertStatement(table: "day", key: ["date", "store"], values: ["sales"])
        let statements = [
            [("d1", "01", 11), ("d1", "02", 20), ("d1", "03", 30), ("d2", "04", 40), ("d2", "04", 41)],
            [("d2", "04", 42), ("d3", "05", 50)],
        ]
        func counts(seed: String) throws -> UpsertCounts {
            let queue = try DatabaseQueue()
            return try queue.write { db in
                try db.execute(sql: Self.schema + seed)
                let session = SQLiteSession(db)
                for rows in statements {
                    var values = PendingValues(capacity: 3 * rows.count)
                    for (date, store, sales) in rows {
                        values.add(date)
                        values.add(store)
                        values.add(sales)
                    }
                    try session.upsert(upsert, values, rows: rows.count)
                }
                return try session.upsertCounts(table: "day")
            }
        }
        XCTAssertEqual(
            try counts(seed: "INSERT INTO day VALUES ('d1', '01', 10), ('d1', '02', 20);"),
            UpsertCounts(inserted: 3, updated: 3, unchanged: 1), "the hook")
        XCTAssertEqual(try counts(seed: ""), UpsertCounts(inserted: 5, updated: 2, unchanged: 0), "growth")
    }

    /// A table empty before the session whose rows all had keys of their own has as many rows
    /// as were written: the caller's count of them stands in for counting the table, and equals
    /// it; a table that held rows before, or no such count, is counted as before.
    func testDistinctKeysIntoAnEmptyTableNeedNoCount() throws {
        let upsert = UpsertStatement(table: "day", key: ["date", "store"], values: ["sales"])
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: Self.schema)
            let session = SQLiteSession(db)
            var values = PendingValues(capacity: 9)
            for (date, store, sales) in [("d1", "01", 10), ("d1", "02", 20), ("d2", "01", 30)]
                as [(String, String, Int)]
            {
                values.add(date)
                values.add(store)
                values.add(sales)
            }
            try session.upsert(upsert, values, rows: 3)
            let counted = try session.upsertCounts(table: "day")
            XCTAssertEqual(counted, UpsertCounts(inserted: 3, updated: 0, unchanged: 0))
            XCTAssertEqual(try session.upsertCounts(table: "day", distinctKeys: 3), counted)
        }
        XCTAssertEqual(UpsertTally(rowsBefore: 0).rowsNowWithoutCounting(distinctKeys: 3), 3)
        XCTAssertNil(UpsertTally(rowsBefore: 0).rowsNowWithoutCounting(distinctKeys: nil))
        XCTAssertNil(UpsertTally(rowsBefore: 5).rowsNowWithoutCounting(distinctKeys: 3), "rows before: count")
        XCTAssertNil(UpsertTally(rowsBefore: nil).rowsNowWithoutCounting(distinctKeys: 3), "the hook counts")
    }

    /// Rows with new keys into a table empty before the session are inserted plainly: a key that
    /// meets a row all the same fails the call (an upsert would have updated the row), and so
    /// fails the file. Into a table that held rows, the same call upserts.
    func testNewKeysIntoAnEmptyTableAreInsertedAndAKeyThatMeetsARowFails() throws {
        let upsert = UpsertStatement(table: "day", key: ["date", "store"], values: ["sales"])
        func values(_ rows: [(String, String, Int)]) -> PendingValues {
            var values = PendingValues(capacity: 3 * rows.count)
            for (date, store, sales) in rows {
                values.add(date)
                values.add(store)
                values.add(sales)
            }
            return values
        }
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: Self.schema)
            let session = SQLiteSession(db)
            try session.upsert(upsert, values([("d1", "01", 10), ("d1", "02", 20)]), rows: 2, keysNew: true)
            XCTAssertThrowsError(try session.upsert(upsert, values([("d1", "01", 11)]), rows: 1, keysNew: true)) {
                XCTAssertEqual(($0 as? DatabaseError)?.resultCode, .SQLITE_CONSTRAINT)
            }
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT sales FROM day WHERE store = '01'"), 10)
            XCTAssertEqual(try session.upsertCounts(table: "day"), UpsertCounts(inserted: 2))
        }
        try queue.write { db in
            // The table holds rows now: a later session upserts whatever it is told.
            let session = SQLiteSession(db)
            try session.upsert(upsert, values([("d1", "01", 11), ("d2", "01", 30)]), rows: 2, keysNew: true)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT sales FROM day WHERE date = 'd1' AND store = '01'"), 11)
            XCTAssertEqual(try session.upsertCounts(table: "day"), UpsertCounts(inserted: 1, updated: 1))
        }
    }

    /// The run's tally says whether each store's dates ascended (so a table keyed by date and
    /// store got a key per record): interleaved stores may, a repeated or earlier date may not.
    func testDatesAscendPerStoreUntilOneRepeatsOrGoesBack() {
        let day = { (day: Int) in CivilDate(year: 2025, month: 6, day: day) }
        var tally = RunStoreTally()
        for (store, date) in [("01", 1), ("02", 1), ("01", 2), ("02", 3), ("03", 1)] {
            tally.add(store: store, date: day(date))
        }
        XCTAssertTrue(tally.datesAscendPerStore)
        var repeated = tally
        repeated.add(store: "02", date: day(3))
        XCTAssertFalse(repeated.datesAscendPerStore, "02 on the 3rd twice")
        var earlier = tally
        earlier.add(store: "01", date: day(1))
        XCTAssertFalse(earlier.datesAscendPerStore, "01 back to the 1st")
    }
}
