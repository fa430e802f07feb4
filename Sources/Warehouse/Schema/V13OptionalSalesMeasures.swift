import GRDB

/// Migration "v13: optional sales measures" on both backends (SPEC section 26): a sales-audit
/// row's transactions and items may be unknown (NULL), in the table and in its history, and
/// the store-month rollups gain the sums of the rows that lack one, which a ratio leaves out.
///
/// Every row before this step reports both, so the new rollup sums start at 0 (their default)
/// and no feed table is scanned.
enum V13OptionalSalesMeasures: SchemaMigration {
    static let name = "v13: optional sales measures"

    /// The rollup columns this step adds, in the order the rollups read them after `calls`.
    static let rollupColumns = [
        "sales_cents_without_transactions", "items_without_transactions", "transactions_without_items",
    ]

    /// SQLite cannot drop a `NOT NULL`: `store_report` is made again with the two columns
    /// nullable (https://sqlite.org/lang_altertable.html#otheralter), every row copied, and its
    /// history trigger, which dropping the table dropped, created again as v6 made it. Its
    /// history table was made by `CREATE TABLE … AS SELECT`, which keeps no `NOT NULL`.
    static func sqlite(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE store_report_v13 (
                    store_code TEXT NOT NULL REFERENCES store(code),
                    date TEXT NOT NULL,
                    total_sales_cents INTEGER NOT NULL,
                    total_transactions INTEGER,
                    total_items INTEGER,
                    ccp_pct_millionths INTEGER,
                    gp_pct_millionths INTEGER,
                    upt REAL,
                    ads_cents INTEGER,
                    ingest_run_id INTEGER,
                    source_row INTEGER,
                    PRIMARY KEY (date, store_code)
                ) WITHOUT ROWID;
                INSERT INTO store_report_v13 (store_code, date, total_sales_cents, total_transactions, total_items,
                    ccp_pct_millionths, gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row)
                SELECT store_code, date, total_sales_cents, total_transactions, total_items, ccp_pct_millionths,
                    gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row
                FROM store_report;
                DROP TABLE store_report;
                ALTER TABLE store_report_v13 RENAME TO store_report;
                CREATE TRIGGER store_report_history AFTER UPDATE ON store_report
                WHEN NEW.ingest_run_id > coalesce(OLD.ingest_run_id, 0)
                BEGIN
                    INSERT INTO store_report_history (store_code, date, total_sales_cents, total_transactions, total_items, ccp_pct_millionths, gp_pct_millionths, upt, ads_cents, ingest_run_id, source_row, replaced_by_run)
                    VALUES (OLD.store_code, OLD.date, OLD.total_sales_cents, OLD.total_transactions, OLD.total_items, OLD.ccp_pct_millionths, OLD.gp_pct_millionths, OLD.upt, OLD.ads_cents, OLD.ingest_run_id, OLD.source_row, NEW.ingest_run_id);
                END;
                ALTER TABLE store_month_rollup ADD COLUMN sales_cents_without_transactions INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE store_month_rollup ADD COLUMN items_without_transactions INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE store_month_rollup ADD COLUMN transactions_without_items INTEGER NOT NULL DEFAULT 0;
                """)
    }

    /// PostgreSQL drops the constraints in place; its history table (`LIKE store_report`) has
    /// them too. The history trigger copies by column name and needs no change.
    static let postgresSQL = """
        ALTER TABLE store_report ALTER COLUMN total_transactions DROP NOT NULL,
            ALTER COLUMN total_items DROP NOT NULL;
        ALTER TABLE store_report_history ALTER COLUMN total_transactions DROP NOT NULL,
            ALTER COLUMN total_items DROP NOT NULL;
        ALTER TABLE store_month_rollup ADD COLUMN sales_cents_without_transactions BIGINT NOT NULL DEFAULT 0,
            ADD COLUMN items_without_transactions BIGINT NOT NULL DEFAULT 0,
            ADD COLUMN transactions_without_items BIGINT NOT NULL DEFAULT 0;
        """
}
