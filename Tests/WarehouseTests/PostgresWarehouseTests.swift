import Feeds
import PostgresClient
import SheetStream
import TestSupport
import XCTest

@testable import Warehouse

/// What only the PostgreSQL backend has to prove (SPEC section 14): its migrations are the
/// SQLite ones, its lock is an advisory lock, and a connection lost mid-file leaves nothing.
final class PostgresWarehouseTests: XCTestCase {
    func testMigrationsHaveTheSameNamesAsSQLitesAndLeaveNothingPending() throws {
        XCTAssertEqual(
            Warehouse.migrationNames,
            [
                "v1: stores and goals", "v1: ingest ledger", "v1: feed tables", "v2: feed tables keyed date first",
                "v3: money in integer cents, percents in integer millionths", "v4: associates, vendors and categories",
                "v5: store-month rollups", "v6: provenance and history", "v7: vendor names", "v8: alarms in the ledger",
                "v9: store opening and closing dates", "v10: history rows built once each", "v11: undo runs",
                "v12: who ran each run, and where", "v13: optional sales measures", "v14: alert state and the outbox",
                "v15: who sees which stores", "v16: weekly sales and closed days",
            ], "shipped steps keep their names: a warehouse records them")
        let location = DatabaseLocation.postgres(url: try TestWarehouses.postgresWarehouseURL())
        XCTAssertEqual(
            try Warehouse.pendingMigrations(at: location), Warehouse.migrationNames, "a new database lacks them all")
        XCTAssertThrowsError(try Warehouse(location: location, mode: .readOnly)) { error in
            XCTAssertTrue("\(error)".hasPrefix("no warehouse at postgresql://"), "\(error)")
        }
        let warehouse = try Warehouse(location: location)
        XCTAssertEqual(warehouse.appliedMigrations, Warehouse.migrationNames)
        XCTAssertEqual(try Warehouse.pendingMigrations(at: location), [])
        XCTAssertEqual(try Warehouse(location: location, mode: .readOnly).appliedMigrations, [])
    }

    /// A warehouse from before "v10: history rows built once each" gets the history functions
    /// that build each replaced row once (the first form built it once per column), and they
    /// still keep a changed row's old values.
    func testAnOlderWarehouseGetsHistoryFunctionsThatBuildEachRowOnce() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        _ = try Warehouse(location: .postgres(url: url))
        let connection = try PostgresConnection(url: url)
        let body = { (function: String) in
            try connection.execute("SELECT pg_get_functiondef(to_regproc($1))", [function]).text(row: 0, column: 0)
                ?? ""
        }
        // As "v6: provenance and history" made it, and v10 not yet applied.
        try connection.executeScript(
            """
            CREATE OR REPLACE FUNCTION store_report_history_keep() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO store_report_history SELECT (jsonb_populate_record(NULL::store_report_history,
                    to_jsonb(OLD) || jsonb_build_object('replaced_by_run', NEW.ingest_run_id))).*;
                RETURN NULL;
            END $$;
            DELETE FROM ddkpi_migrations WHERE identifier = '\(V10HistoryRowsBuiltOnce.name)';
            """)
        XCTAssertTrue(try body("store_report_history_keep").contains(").*"))
        let warehouse = try Warehouse(location: .postgres(url: url))
        XCTAssertEqual(warehouse.appliedMigrations, [V10HistoryRowsBuiltOnce.name])
        for table in HistoryTable.all {
            let definition = try body("\(table.history)_keep")
            XCTAssertTrue(definition.contains("SELECT * FROM jsonb_populate_record"), definition)
            XCTAssertFalse(definition.contains(").*"), definition)
        }
        try connection.executeScript(
            """
            INSERT INTO store (code, name) VALUES ('08', 'Natick');
            INSERT INTO store_report (date, store_code, total_sales_cents, total_transactions, total_items,
                ingest_run_id, source_row) VALUES ('2025-07-14', '08', 10000, 2, 3, 1, 2);
            UPDATE store_report SET total_sales_cents = 11000, ingest_run_id = 2, source_row = 5;
            """)
        let history = try connection.execute(
            "SELECT total_sales_cents, ingest_run_id, source_row, replaced_by_run FROM store_report_history")
        XCTAssertEqual(history.rowCount, 1)
        XCTAssertEqual((0..<4).map { history.text(row: 0, column: $0) }, ["10000", "1", "2", "2"])
    }

    /// A warehouse from before "v13: optional sales measures" keeps every value: its rows and
    /// rollups; the counts become nullable in the table and its history, which keeps a NULL.
    func testAV12WarehouseKeepsEveryValueAndItsCountsBecomeNullable() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        _ = try Warehouse(location: .postgres(url: url))
        let connection = try PostgresConnection(url: url)
        // As v12 left them, with values.
        try connection.executeScript(
            """
            ALTER TABLE store_report ALTER COLUMN total_transactions SET NOT NULL,
                ALTER COLUMN total_items SET NOT NULL;
            ALTER TABLE store_report_history ALTER COLUMN total_transactions SET NOT NULL,
                ALTER COLUMN total_items SET NOT NULL;
            ALTER TABLE store_month_rollup DROP COLUMN sales_cents_without_transactions,
                DROP COLUMN items_without_transactions, DROP COLUMN transactions_without_items;
            DELETE FROM ddkpi_migrations WHERE identifier = '\(V13OptionalSalesMeasures.name)';
            INSERT INTO store (code, name) VALUES ('08', 'Natick'), ('10', 'Framingham');
            INSERT INTO store_report (store_code, date, total_sales_cents, total_transactions, total_items,
                ccp_pct_millionths, gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row) VALUES
                ('08', '2025-07-14', 123456, 10, 25, 452000, NULL, 2.5, 12346, 3, 5),
                ('10', '2025-07-14', -2000, 1, 1, NULL, 510000, 1, -2000, 3, 6);
            INSERT INTO store_month_rollup VALUES ('08', '2025-07', 123456, 10, 25, '11300000', 25, '0', 0, 1, 2, 3, 4);
            """)
        let rows = """
            SELECT store_code, date, total_sales_cents, total_transactions, total_items, ccp_pct_millionths,
                gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row FROM store_report ORDER BY date, store_code
            """
        let texts = { (sql: String, columns: Int) throws -> [[String?]] in
            let result = try connection.execute(sql)
            return (0..<result.rowCount).map { row in (0..<columns).map { result.text(row: row, column: $0) } }
        }
        let before = try texts(rows, 11)

        let warehouse = try Warehouse(location: .postgres(url: url))
        XCTAssertEqual(warehouse.appliedMigrations, [V13OptionalSalesMeasures.name])
        XCTAssertEqual(try texts(rows, 11), before, "every value kept")
        let rollupColumns = Warehouse.rollupColumns.dropFirst(2).joined(separator: ", ")
        XCTAssertEqual(
            try texts("SELECT \(rollupColumns) FROM store_month_rollup", 14),
            [["123456", "10", "25", "11300000", "25", "0", "0", "1", "2", "3", "4", "0", "0", "0"]])
        XCTAssertEqual(
            try texts(
                """
                SELECT table_name, column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name IN ('total_transactions', 'total_items')
                    AND table_name LIKE 'store_report%' AND is_nullable = 'YES' ORDER BY table_name, column_name
                """, 2),
            [
                ["store_report", "total_items"], ["store_report", "total_transactions"],
                ["store_report_history", "total_items"], ["store_report_history", "total_transactions"],
            ])
        try connection.executeScript(
            """
            UPDATE store_report SET total_items = NULL, ingest_run_id = 4 WHERE store_code = '08';
            UPDATE store_report SET total_items = 9, ingest_run_id = 5 WHERE store_code = '08';
            """)
        XCTAssertEqual(
            try texts("SELECT total_items, replaced_by_run FROM store_report_history ORDER BY replaced_by_run", 2),
            [["25", "4"], [nil, "5"]], "the history keeps a NULL it replaced")
    }

    func testTheIngestLockIsAnAdvisoryLockAcrossProcessesAndMachines() throws {
        let location = DatabaseLocation.postgres(url: try TestWarehouses.postgresWarehouseURL())
        let first = try Warehouse(location: location)
        let second = try Warehouse(location: location)
        let lock = try XCTUnwrap(try first.tryIngestLock())
        XCTAssertNil(try second.tryIngestLock(), "held by another session")
        lock.release()
        let again = try XCTUnwrap(try second.tryIngestLock(), "free once released")
        again.release()
    }

    /// The server ends the warehouse's connection while a file is being read: nothing of the
    /// file lands, the ledger (written on a new connection) says `failed`, and the next file works.
    func testAConnectionLostMidFileLeavesNothingAndTheLedgerSaysFailed() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let warehouse = try Warehouse(location: .postgres(url: url))
        let stores = try TestPaths.write(
            Array("code,name\n08,Natick\n10,Framingham\n".utf8), named: "stores.csv", in: directory)
        XCTAssertEqual(SampleWarehouse.ingest(stores, as: .stores, into: warehouse).status, .ok)
        let sales = try TestPaths.write(
            Array(
                "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\n10,2025-07-14,50,1,1\n08,2025-07-15,70,1,1\n"
                    .utf8),
            named: "sales_audit.csv", in: directory)
        let killer = try PostgresConnection(url: url)
        let outcome = warehouse.ingest(path: sales, options: IngestOptions()) {
            let file = try SpreadsheetFile.open(path: sales)
            let reader = FeedFileReader(
                definition: FeedCatalog.definition(.salesAudit), directory: try warehouse.storeDirectory(),
                options: FeedOptions())
            return PreparedFeed(feed: .salesAudit) { emit in
                var emitted = 0
                return try reader.read(file) { record, row in
                    if emitted == 2 {
                        try killer.execute(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        )
                    }
                    try emit(record, row)
                    emitted += 1
                }
            }
        }
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error?.contains("connection") == true, outcome.error ?? "")
        XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report"), 0)
        XCTAssertEqual(try warehouse.runs(limit: 1).first?.status, "failed")
        XCTAssertEqual(
            SampleWarehouse.ingest(sales, as: .salesAudit, into: warehouse).status, .ok, "the next attempt reconnects")
        XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report"), 3)
    }

    func testAnUnreachableServerIsAClearErrorWithoutThePassword() throws {
        XCTAssertThrowsError(
            try Warehouse(location: .postgres(url: "postgresql://ddkpi:s3cret@127.0.0.1:1/none?connect_timeout=2"))
        ) { error in
            let message = "\(error)"
            XCTAssertTrue(message.hasPrefix("cannot connect to postgresql://ddkpi:***@127.0.0.1:1/none"), message)
            XCTAssertFalse(message.contains("s3cret"), message)
        }
    }
}
