import GRDB

/// Migration "v6: provenance and history" on both backends (SPEC section 16).
///
/// Every history table is a copy of its table's columns at the time (SQLite `CREATE TABLE … AS
/// SELECT`, PostgreSQL `LIKE`) plus `replaced_by_run`, so this step builds the same tables
/// however the declarations grow later: a later migration that adds a column to a feed table
/// adds it to the history table too, and rewrites the SQLite trigger (which names columns).
/// The ledger learns the statuses `held` and `undone`, the sheet of each run, whether a run's
/// history was pruned (every run before this step counts as pruned: nothing kept its earlier
/// values), and per-store counts (`ingest_run_store`).
enum V06ProvenanceAndHistory: SchemaMigration {
    static let name = "v6: provenance and history"

    /// The tables this step gives history, as they were then (a later step adds its own).
    private static let tables = [
        "store_report", "credit_report", "birdeye_report", "crm_intake_report", "outbound_call_report",
        "employee_report",
        "merch_report", "employee", "goal", "store",
    ]

    /// The SQLite step: columns, history tables, triggers, the rebuilt ledger.
    static func sqlite(_ db: Database) throws {
        for table in tables {
            // `employee` and the feed tables have their run already; `goal` and `store` gain it.
            let existing = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
            for column in [HistoryTable.runColumn, HistoryTable.sourceRowColumn] where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) INTEGER")
            }
            try addSQLiteHistory(of: table, db)
        }
        try db.execute(
            sql: """
                CREATE TABLE ingest_run_v6 (
                    id INTEGER PRIMARY KEY,
                    path TEXT NOT NULL,
                    size INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    feed TEXT,
                    sheet TEXT,
                    started_at TEXT NOT NULL,
                    finished_at TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'duplicate', 'held', 'undone')),
                    read_rows INTEGER NOT NULL DEFAULT 0,
                    inserted INTEGER NOT NULL DEFAULT 0,
                    updated INTEGER NOT NULL DEFAULT 0,
                    unchanged INTEGER NOT NULL DEFAULT 0,
                    skipped INTEGER NOT NULL DEFAULT 0,
                    rejected INTEGER NOT NULL DEFAULT 0,
                    error TEXT,
                    history_pruned INTEGER NOT NULL DEFAULT 0
                );
                INSERT INTO ingest_run_v6 (id, path, size, sha256, feed, sheet, started_at, finished_at, status, read_rows,
                    inserted, updated, unchanged, skipped, rejected, error)
                SELECT id, path, size, sha256, feed, sheet, started_at, finished_at, status, read_rows, inserted, updated,
                    unchanged, skipped, rejected, error
                FROM ingest_run;
                DROP TABLE ingest_run;
                ALTER TABLE ingest_run_v6 RENAME TO ingest_run;
                CREATE INDEX ingest_run_sha ON ingest_run(sha256, status);
                -- Runs from before history cannot be undone.
                UPDATE ingest_run SET history_pruned = 1;
                \(runStoreTable(integer: "INTEGER", text: "TEXT", suffix: " WITHOUT ROWID"))
                \(aliasHistoryTable(integer: "INTEGER", text: "TEXT"))
                """)
    }

    /// The PostgreSQL step, the same in its dialect.
    static var postgresSQL: String {
        let history = tables.map { table -> String in
            // Only `goal` and `store` had no run column before.
            let missing =
                ["goal", "store"].contains(table)
                ? [HistoryTable.runColumn, HistoryTable.sourceRowColumn] : [HistoryTable.sourceRowColumn]
            return missing.map { "ALTER TABLE \(table) ADD COLUMN \($0) BIGINT;\n" }.joined()
                + postgresHistory(of: table)
        }
        return history.joined(separator: "\n") + """

            ALTER TABLE ingest_run DROP CONSTRAINT ingest_run_status_check;
            ALTER TABLE ingest_run ADD CONSTRAINT ingest_run_status_check
                CHECK (status IN ('ok', 'failed', 'duplicate', 'held', 'undone'));
            ALTER TABLE ingest_run ADD COLUMN history_pruned BIGINT NOT NULL DEFAULT 0;
            UPDATE ingest_run SET history_pruned = 1;
            \(runStoreTable(integer: "BIGINT", text: "TEXT COLLATE \"C\"", suffix: ""))
            \(aliasHistoryTable(integer: "BIGINT", text: "TEXT COLLATE \"C\""))
            """
    }

    /// Gives a SQLite table its history: `<table>_history` with the table's columns now (but a
    /// rowid `id`) and `replaced_by_run`, its indexes, and the trigger that fills it.
    static func addSQLiteHistory(of table: String, _ db: Database) throws {
        let history = "\(table)_history"
        let columns = try String.fetchAll(
            db, sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [table]
        )
        .filter { $0 != "id" }
        try db.execute(
            sql: """
                CREATE TABLE \(history) AS SELECT \(columns.joined(separator: ", ")) FROM \(table) WHERE 0;
                ALTER TABLE \(history) ADD COLUMN \(HistoryTable.replacedByColumn) INTEGER NOT NULL DEFAULT 0;
                \(indexes(history))
                \(sqliteTrigger(of: table, columns: columns))
                """)
    }

    /// The SQLite trigger that copies a row's old values into its history table; it names the
    /// columns, so a migration that adds one to the table creates it again.
    static func sqliteTrigger(of table: String, columns: [String]) -> String {
        let history = "\(table)_history"
        return """
            CREATE TRIGGER \(history) AFTER UPDATE ON \(table)
            WHEN NEW.\(HistoryTable.runColumn) > coalesce(OLD.\(HistoryTable.runColumn), 0)
            BEGIN
                INSERT INTO \(history) (\(columns.joined(separator: ", ")), \(HistoryTable.replacedByColumn))
                VALUES (\(columns.map { "OLD.\($0)" }.joined(separator: ", ")), NEW.\(HistoryTable.runColumn));
            END;
            """
    }

    /// The same on PostgreSQL. The trigger copies the old row by column name (through `jsonb`),
    /// so it needs no column list. Its function is v6's and v7's shipped form, which builds the
    /// row once per column: a later step that calls this follows it with
    /// `V10HistoryRowsBuiltOnce.keepFunction(of:)`.
    static func postgresHistory(of table: String) -> String {
        let history = "\(table)_history"
        return """
            CREATE TABLE \(history) (LIKE \(table));
            \(table == "goal" ? "ALTER TABLE \(history) DROP COLUMN id;" : "")
            ALTER TABLE \(history) ADD COLUMN \(HistoryTable.replacedByColumn) BIGINT NOT NULL DEFAULT 0;
            \(indexes(history))
            CREATE FUNCTION \(history)_keep() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO \(history) SELECT (jsonb_populate_record(NULL::\(history),
                    to_jsonb(OLD) || jsonb_build_object('\(HistoryTable.replacedByColumn)', NEW.\(HistoryTable.runColumn)))).*;
                RETURN NULL;
            END $$;
            CREATE TRIGGER \(history) AFTER UPDATE ON \(table) FOR EACH ROW
                WHEN (NEW.\(HistoryTable.runColumn) > coalesce(OLD.\(HistoryTable.runColumn), 0))
                EXECUTE FUNCTION \(history)_keep();
            """
    }

    /// A history table's indexes: by the run that replaced the values (undo, `runs show`) and
    /// by the run whose values they are (which later runs changed a run's rows).
    private static func indexes(_ history: String) -> String {
        """
        CREATE INDEX \(history)_replaced ON \(history)(\(HistoryTable.replacedByColumn));
        CREATE INDEX \(history)_run ON \(history)(\(HistoryTable.runColumn));
        """
    }

    /// A store's aliases before a stores import replaced them (one row with a NULL `alias_key`
    /// when it had none).
    private static func aliasHistoryTable(integer: String, text: String) -> String {
        """
        CREATE TABLE store_alias_history (
            \(HistoryTable.replacedByColumn) \(integer) NOT NULL,
            store_code \(text) NOT NULL,
            alias_key \(text),
            alias \(text)
        );
        CREATE INDEX store_alias_history_replaced ON store_alias_history(\(HistoryTable.replacedByColumn));
        """
    }

    /// Per run and store: what the run did to the store's rows, and the dates it covered.
    private static func runStoreTable(integer: String, text: String, suffix: String) -> String {
        """
        CREATE TABLE ingest_run_store (
            run_id \(integer) NOT NULL REFERENCES ingest_run(id) ON DELETE CASCADE,
            store_code \(text) NOT NULL,
            inserted \(integer) NOT NULL,
            updated \(integer) NOT NULL,
            unchanged \(integer) NOT NULL,
            first_date \(text) NOT NULL,
            last_date \(text) NOT NULL,
            PRIMARY KEY (run_id, store_code)
        )\(suffix);
        """
    }
}
