import GRDB

/// Migration "v2: feed tables keyed date first" on both backends: the feed tables keyed by date, then store.
enum V02FeedTablesKeyedDateFirst: SchemaMigration {
    static let name = "v2: feed tables keyed date first"

    static func sqlite(_ db: Database) throws {
        // Exports arrive a day (or week) at a time for every store, so a date-first key makes
        // each file's inserts append at the end of the B-tree instead of splitting a page per store.
        try db.execute(
            sql: """
                CREATE TABLE store_report_v2 (
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
                    PRIMARY KEY (date, store_code)
                ) WITHOUT ROWID;
                INSERT INTO store_report_v2 SELECT * FROM store_report;
                DROP TABLE store_report;
                ALTER TABLE store_report_v2 RENAME TO store_report;
                CREATE TABLE credit_report_v2 (
                    store_code TEXT NOT NULL REFERENCES store(code),
                    date TEXT NOT NULL,
                    total_applications INTEGER NOT NULL,
                    ingest_run_id INTEGER,
                    PRIMARY KEY (date, store_code)
                ) WITHOUT ROWID;
                INSERT INTO credit_report_v2 SELECT * FROM credit_report;
                DROP TABLE credit_report;
                ALTER TABLE credit_report_v2 RENAME TO credit_report;
                CREATE TABLE crm_intake_report_v2 (
                    store_code TEXT NOT NULL REFERENCES store(code),
                    date TEXT NOT NULL,
                    total_intakes INTEGER NOT NULL,
                    ingest_run_id INTEGER,
                    PRIMARY KEY (date, store_code)
                ) WITHOUT ROWID;
                INSERT INTO crm_intake_report_v2 SELECT * FROM crm_intake_report;
                DROP TABLE crm_intake_report;
                ALTER TABLE crm_intake_report_v2 RENAME TO crm_intake_report;
                CREATE TABLE birdeye_report_v2 (
                    store_code TEXT NOT NULL REFERENCES store(code),
                    week_start TEXT NOT NULL,
                    review_count INTEGER NOT NULL,
                    day_0 INTEGER,
                    day_1 INTEGER,
                    day_2 INTEGER,
                    day_3 INTEGER,
                    day_4 INTEGER,
                    day_5 INTEGER,
                    day_6 INTEGER,
                    ingest_run_id INTEGER,
                    PRIMARY KEY (week_start, store_code)
                ) WITHOUT ROWID;
                INSERT INTO birdeye_report_v2 SELECT * FROM birdeye_report;
                DROP TABLE birdeye_report;
                ALTER TABLE birdeye_report_v2 RENAME TO birdeye_report;
                CREATE TABLE outbound_call_report_v2 (
                    store_code TEXT NOT NULL REFERENCES store(code),
                    week_start TEXT NOT NULL,
                    total_calls INTEGER NOT NULL,
                    day_0 INTEGER,
                    day_1 INTEGER,
                    day_2 INTEGER,
                    day_3 INTEGER,
                    day_4 INTEGER,
                    day_5 INTEGER,
                    day_6 INTEGER,
                    ingest_run_id INTEGER,
                    PRIMARY KEY (week_start, store_code)
                ) WITHOUT ROWID;
                INSERT INTO outbound_call_report_v2 SELECT * FROM outbound_call_report;
                DROP TABLE outbound_call_report;
                ALTER TABLE outbound_call_report_v2 RENAME TO outbound_call_report;
                """)
    }

    static let postgresSQL = """
        ALTER TABLE store_report DROP CONSTRAINT store_report_pkey, ADD PRIMARY KEY (date, store_code);
        ALTER TABLE credit_report DROP CONSTRAINT credit_report_pkey, ADD PRIMARY KEY (date, store_code);
        ALTER TABLE crm_intake_report DROP CONSTRAINT crm_intake_report_pkey, ADD PRIMARY KEY (date, store_code);
        ALTER TABLE birdeye_report DROP CONSTRAINT birdeye_report_pkey, ADD PRIMARY KEY (week_start, store_code);
        ALTER TABLE outbound_call_report DROP CONSTRAINT outbound_call_report_pkey,
            ADD PRIMARY KEY (week_start, store_code);
        """
}
