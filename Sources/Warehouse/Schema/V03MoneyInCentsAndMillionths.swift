import GRDB

/// Migration "v3: money in integer cents, percents in integer millionths" on both backends: money in integer cents and percents in integer millionths (SPEC section 4).
enum V03MoneyInCentsAndMillionths: SchemaMigration {
    static let name = "v3: money in integer cents, percents in integer millionths"

    static func sqlite(_ db: Database) throws {
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

    // Rounded half away from zero, as in SQLite: `numeric` rounding, not binary `float8`'s.
    static let postgresSQL = """
        ALTER TABLE store_report RENAME COLUMN total_sales TO total_sales_cents;
        ALTER TABLE store_report ALTER COLUMN total_sales_cents TYPE BIGINT
            USING round(total_sales_cents::numeric * 100)::bigint;
        ALTER TABLE store_report RENAME COLUMN ccp_pct TO ccp_pct_millionths;
        ALTER TABLE store_report ALTER COLUMN ccp_pct_millionths TYPE BIGINT
            USING round(ccp_pct_millionths::numeric * 1000000)::bigint;
        ALTER TABLE store_report RENAME COLUMN gp_pct TO gp_pct_millionths;
        ALTER TABLE store_report ALTER COLUMN gp_pct_millionths TYPE BIGINT
            USING round(gp_pct_millionths::numeric * 1000000)::bigint;
        ALTER TABLE store_report RENAME COLUMN ads TO ads_cents;
        ALTER TABLE store_report ALTER COLUMN ads_cents TYPE BIGINT USING round(ads_cents::numeric * 100)::bigint;
        """
}
