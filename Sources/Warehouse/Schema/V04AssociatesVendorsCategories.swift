import GRDB

/// Migration "v4: associates, vendors and categories" on both backends: the associate and merch tables (SPEC sections 9 and 10).
enum V04AssociatesVendorsCategories: SchemaMigration {
    static let name = "v4: associates, vendors and categories"

    static func sqlite(_ db: Database) throws {
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

    static let postgresSQL = """
        CREATE TABLE employee_report (
            date TEXT COLLATE "C" NOT NULL,
            store_code TEXT COLLATE "C" NOT NULL,
            employee_id TEXT COLLATE "C" NOT NULL,
            grain TEXT COLLATE "C" NOT NULL CHECK (grain IN ('day', 'month')),
            total_sales_cents BIGINT NOT NULL,
            total_transactions BIGINT NOT NULL,
            total_items BIGINT NOT NULL,
            ccp_pct_millionths BIGINT,
            gp_pct_millionths BIGINT,
            ingest_run_id BIGINT,
            PRIMARY KEY (date, store_code, employee_id)
        );
        CREATE TABLE employee (
            employee_id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
            name TEXT COLLATE "C" NOT NULL,
            name_as_of TEXT COLLATE "C" NOT NULL,
            ingest_run_id BIGINT
        );
        CREATE TABLE merch_report (
            date TEXT COLLATE "C" NOT NULL,
            store_code TEXT COLLATE "C" NOT NULL,
            vendor_key TEXT COLLATE "C" NOT NULL,
            category TEXT COLLATE "C" NOT NULL,
            grain TEXT COLLATE "C" NOT NULL CHECK (grain IN ('day', 'month')),
            vendor_name TEXT COLLATE "C" NOT NULL,
            total_sales_cents BIGINT NOT NULL,
            total_items BIGINT NOT NULL,
            ingest_run_id BIGINT,
            PRIMARY KEY (date, store_code, vendor_key, category)
        );
        """
}
