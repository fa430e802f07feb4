import GRDB

extension Warehouse {
    /// Named, append-only migrations: never edit one that has shipped; add the next.
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
            let dailyCounts = (0..<7).map { "day_\($0) INTEGER" }.joined(separator: ",\n    ")
            try db.execute(
                sql: """
                    CREATE TABLE store_report (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        date TEXT NOT NULL,
                        total_sales REAL NOT NULL,
                        total_transactions INTEGER NOT NULL,
                        total_items INTEGER NOT NULL,
                        ccp_pct REAL,
                        gp_pct REAL,
                        upt REAL,
                        ads REAL,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (store_code, date)
                    ) WITHOUT ROWID;
                    CREATE TABLE credit_report (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        date TEXT NOT NULL,
                        total_applications INTEGER NOT NULL,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (store_code, date)
                    ) WITHOUT ROWID;
                    CREATE TABLE crm_intake_report (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        date TEXT NOT NULL,
                        total_intakes INTEGER NOT NULL,
                        ingest_run_id INTEGER,
                        PRIMARY KEY (store_code, date)
                    ) WITHOUT ROWID;
                    CREATE TABLE birdeye_report (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        week_start TEXT NOT NULL,
                        review_count INTEGER NOT NULL,
                        \(dailyCounts),
                        ingest_run_id INTEGER,
                        PRIMARY KEY (store_code, week_start)
                    ) WITHOUT ROWID;
                    CREATE TABLE outbound_call_report (
                        store_code TEXT NOT NULL REFERENCES store(code),
                        week_start TEXT NOT NULL,
                        total_calls INTEGER NOT NULL,
                        \(dailyCounts),
                        ingest_run_id INTEGER,
                        PRIMARY KEY (store_code, week_start)
                    ) WITHOUT ROWID;
                    """)
        }
        return migrator
    }
}
