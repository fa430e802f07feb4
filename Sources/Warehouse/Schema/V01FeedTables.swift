import GRDB

/// Migration "v1: feed tables" on both backends: the five feed tables as first declared.
enum V01FeedTables: SchemaMigration {
    static let name = "v1: feed tables"

    static func sqlite(_ db: Database) throws {
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
                    day_0 INTEGER,
                    day_1 INTEGER,
                    day_2 INTEGER,
                    day_3 INTEGER,
                    day_4 INTEGER,
                    day_5 INTEGER,
                    day_6 INTEGER,
                    ingest_run_id INTEGER,
                    PRIMARY KEY (store_code, week_start)
                ) WITHOUT ROWID;
                CREATE TABLE outbound_call_report (
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
                    PRIMARY KEY (store_code, week_start)
                ) WITHOUT ROWID;
                """)
    }

    static let postgresSQL = """
        CREATE TABLE store_report (
            store_code TEXT COLLATE "C" NOT NULL, date TEXT COLLATE "C" NOT NULL,
            total_sales DOUBLE PRECISION NOT NULL, total_transactions BIGINT NOT NULL, total_items BIGINT NOT NULL,
            ccp_pct DOUBLE PRECISION, gp_pct DOUBLE PRECISION, upt DOUBLE PRECISION, ads DOUBLE PRECISION,
            ingest_run_id BIGINT, PRIMARY KEY (store_code, date));
        CREATE TABLE credit_report (
            store_code TEXT COLLATE "C" NOT NULL, date TEXT COLLATE "C" NOT NULL,
            total_applications BIGINT NOT NULL, ingest_run_id BIGINT, PRIMARY KEY (store_code, date));
        CREATE TABLE crm_intake_report (
            store_code TEXT COLLATE "C" NOT NULL, date TEXT COLLATE "C" NOT NULL,
            total_intakes BIGINT NOT NULL, ingest_run_id BIGINT, PRIMARY KEY (store_code, date));
        CREATE TABLE birdeye_report (
            store_code TEXT COLLATE "C" NOT NULL, week_start TEXT COLLATE "C" NOT NULL,
            review_count BIGINT NOT NULL, day_0 BIGINT, day_1 BIGINT, day_2 BIGINT, day_3 BIGINT, day_4 BIGINT,
            day_5 BIGINT, day_6 BIGINT, ingest_run_id BIGINT, PRIMARY KEY (store_code, week_start));
        CREATE TABLE outbound_call_report (
            store_code TEXT COLLATE "C" NOT NULL, week_start TEXT COLLATE "C" NOT NULL,
            total_calls BIGINT NOT NULL, day_0 BIGINT, day_1 BIGINT, day_2 BIGINT, day_3 BIGINT, day_4 BIGINT,
            day_5 BIGINT, day_6 BIGINT, ingest_run_id BIGINT, PRIMARY KEY (store_code, week_start));
        """
}
