import GRDB

extension Warehouse {
    /// Named, append-only migrations of the SQLite warehouse: never edit one that has shipped;
    /// add the next, here and in `PostgresMigrations` under the same name.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: stores and goals") { db in
            try db.execute(
                sql: """
                    CREATE TABLE store (
                        code TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        region TEXT,
                        status TEXT NOT NULL DEFAULT 'active'
                    );
                    CREATE TABLE store_alias (
                        alias_key TEXT PRIMARY KEY NOT NULL,
                        alias TEXT NOT NULL,
                        store_code TEXT NOT NULL REFERENCES store(code) ON DELETE CASCADE
                    );
                    CREATE INDEX store_alias_store ON store_alias(store_code);
                    CREATE TABLE goal (
                        id INTEGER PRIMARY KEY,
                        period TEXT NOT NULL,
                        scope TEXT NOT NULL,
                        metric TEXT NOT NULL,
                        date TEXT NOT NULL DEFAULT '',
                        target REAL NOT NULL
                    );
                    CREATE UNIQUE INDEX goal_key ON goal(period, scope, metric, date);
                    """)
        }
        migrator.registerMigration("v1: ingest ledger") { db in
            try db.execute(
                sql: """
                    CREATE TABLE ingest_run (
                        id INTEGER PRIMARY KEY,
                        path TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        sha256 TEXT NOT NULL,
                        feed TEXT,
                        sheet TEXT,
                        started_at TEXT NOT NULL,
                        finished_at TEXT NOT NULL,
                        status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'duplicate')),
                        read_rows INTEGER NOT NULL DEFAULT 0,
                        inserted INTEGER NOT NULL DEFAULT 0,
                        updated INTEGER NOT NULL DEFAULT 0,
                        unchanged INTEGER NOT NULL DEFAULT 0,
                        skipped INTEGER NOT NULL DEFAULT 0,
                        rejected INTEGER NOT NULL DEFAULT 0,
                        error TEXT
                    );
                    CREATE INDEX ingest_run_sha ON ingest_run(sha256, status);
                    CREATE TABLE ingest_reject (
                        run_id INTEGER NOT NULL REFERENCES ingest_run(id) ON DELETE CASCADE,
                        sheet TEXT NOT NULL,
                        row INTEGER NOT NULL,
                        column_name TEXT,
                        header TEXT,
                        value TEXT NOT NULL,
                        reason TEXT NOT NULL
                    );
                    CREATE INDEX ingest_reject_run ON ingest_reject(run_id);
                    """)
        }
        migrator.registerMigration("v1: feed tables") { db in
            try db.execute(sql: feedTables.map { $0.definition(keyedDateFirst: false) }.joined(separator: "\n"))
        }
        migrator.registerMigration("v2: feed tables keyed date first") { db in
            // Exports arrive a day (or week) at a time for every store, so a date-first key makes
            // each file's inserts append at the end of the B-tree instead of splitting a page per store.
            for table in feedTables {
                try db.execute(
                    sql: """
                        \(table.definition(keyedDateFirst: true, name: "\(table.name)_v2"))
                        INSERT INTO \(table.name)_v2 SELECT * FROM \(table.name);
                        DROP TABLE \(table.name);
                        ALTER TABLE \(table.name)_v2 RENAME TO \(table.name);
                        """)
            }
        }
        migrator.registerMigration("v3: money in integer cents, percents in integer millionths") { db in
            // SPEC section 4: exact integers make every sum exact, in any grouping order and on
            // any backend. Values are converted in place, rounded half away from zero.
            try db.execute(
                sql: """
                    CREATE TABLE store_report_v3 (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        date TEXT NOT NULL,
                        total_sales_cents INTEGER NOT NULL,
                        total_transactions INTEGER NOT NULL,
                        total_items INTEGER NOT NULL,
                        ccp_pct_millionths INTEGER,
                        gp_pct_millionths INTEGER,
                        upt REAL,
                        ads_cents INTEGER,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (date, store_code)
                    ) WITHOUT ROWID;
                    INSERT INTO store_report_v3
                    SELECT store_code, date, CAST(round(total_sales * 100) AS INTEGER), total_transactions, total_items,
                        CAST(round(ccp_pct * 1000000) AS INTEGER), CAST(round(gp_pct * 1000000) AS INTEGER), upt,
                        CAST(round(ads * 100) AS INTEGER), ingest_run_id
                    FROM store_report;
                    DROP TABLE store_report;
                    ALTER TABLE store_report_v3 RENAME TO store_report;
                    """)
        }
        migrator.registerMigration("v4: associates, vendors and categories") { db in
            // `date` is the row's day (`YYYY-MM-DD`) or, for monthly rows, its month (`YYYY-MM`);
            // `grain` says which. Keyed date first like the other feed tables.
            try db.execute(
                sql: """
                    CREATE TABLE employee_report (
                        date TEXT NOT NULL,
                        store_code TEXT NOT NULL REFERENCES store(code),
                        employee_id TEXT NOT NULL,
                        grain TEXT NOT NULL CHECK (grain IN ('day', 'month')),
                        total_sales_cents INTEGER NOT NULL,
                        total_transactions INTEGER NOT NULL,
                        total_items INTEGER NOT NULL,
                        ccp_pct_millionths INTEGER,
                        gp_pct_millionths INTEGER,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (date, store_code, employee_id)
                    ) WITHOUT ROWID;
                    CREATE TABLE employee (
                        employee_id TEXT PRIMARY KEY NOT NULL,
                        name TEXT NOT NULL,
                        name_as_of TEXT NOT NULL,
                        ingest_run_id INTEGER
                    );
                    CREATE TABLE merch_report (
                        date TEXT NOT NULL,
                        store_code TEXT NOT NULL REFERENCES store(code),
                        vendor_key TEXT NOT NULL,
                        category TEXT NOT NULL,
                        grain TEXT NOT NULL CHECK (grain IN ('day', 'month')),
                        vendor_name TEXT NOT NULL,
                        total_sales_cents INTEGER NOT NULL,
                        total_items INTEGER NOT NULL,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (date, store_code, vendor_key, category)
                    ) WITHOUT ROWID;
                    """)
        }
        migrator.registerMigration("v5: store-month rollups") { db in
            try db.execute(
                sql: """
                    CREATE TABLE store_month_rollup (
                        store_code TEXT NOT NULL,
                        month TEXT NOT NULL,
                        sales_cents INTEGER NOT NULL,
                        transactions INTEGER NOT NULL,
                        items INTEGER NOT NULL,
                        ccp_weighted TEXT NOT NULL,
                        ccp_items INTEGER NOT NULL,
                        gp_weighted TEXT NOT NULL,
                        gp_sales_cents INTEGER NOT NULL,
                        applications INTEGER NOT NULL,
                        reviews INTEGER NOT NULL,
                        intakes INTEGER NOT NULL,
                        calls INTEGER NOT NULL,
                        PRIMARY KEY (month, store_code)
                    ) WITHOUT ROWID;
                    """)
            _ = try rebuildRollups(SQLiteSession(db))
        }
        migrator.registerMigration(HistoryMigration.name) { db in try HistoryMigration.sqlite(db) }
        migrator.registerMigration(VendorNamesMigration.name) { db in try VendorNamesMigration.sqlite(db) }
        migrator.registerMigration(AlarmLedgerMigration.name) { db in try AlarmLedgerMigration.sqlite(db) }
        migrator.registerMigration(StoreDatesMigration.name) { db in try StoreDatesMigration.sqlite(db) }
        migrator.registerMigration(HistoryFunctionMigration.name) { db in try HistoryFunctionMigration.sqlite(db) }
        migrator.registerMigration(UndoRunMigration.name) { db in try UndoRunMigration.sqlite(db) }
        return migrator
    }

    /// A feed table: its name, its date column (`date` or `week_start`) and the other columns.
    private struct FeedTable {
        let name: String
        let dateColumn: String
        let columns: [String]

        /// `CREATE TABLE` for the table, its primary key the dedup key in the order given.
        func definition(keyedDateFirst: Bool, name: String? = nil) -> String {
            let key = keyedDateFirst ? "\(dateColumn), store_code" : "store_code, \(dateColumn)"
            let body =
                ["store_code TEXT NOT NULL REFERENCES store(code)", "\(dateColumn) TEXT NOT NULL"] + columns
                + ["ingest_run_id INTEGER", "PRIMARY KEY (\(key))"]
            return "CREATE TABLE \(name ?? self.name) (\n    \(body.joined(separator: ",\n    "))\n) WITHOUT ROWID;"
        }
    }

    /// The feed tables as v1 created them (later migrations change them in place; this list
    /// must not change, or v1 and v2 would create something else on a new warehouse).
    private static let feedTables: [FeedTable] = {
        let dailyCounts = (0..<7).map { "day_\($0) INTEGER" }
        return [
            FeedTable(
                name: "store_report", dateColumn: "date",
                columns: [
                    "total_sales REAL NOT NULL", "total_transactions INTEGER NOT NULL", "total_items INTEGER NOT NULL",
                    "ccp_pct REAL", "gp_pct REAL", "upt REAL", "ads REAL",
                ]),
            FeedTable(name: "credit_report", dateColumn: "date", columns: ["total_applications INTEGER NOT NULL"]),
            FeedTable(name: "crm_intake_report", dateColumn: "date", columns: ["total_intakes INTEGER NOT NULL"]),
            FeedTable(
                name: "birdeye_report", dateColumn: "week_start",
                columns: ["review_count INTEGER NOT NULL"] + dailyCounts),
            FeedTable(
                name: "outbound_call_report", dateColumn: "week_start",
                columns: ["total_calls INTEGER NOT NULL"] + dailyCounts),
        ]
    }()
}
