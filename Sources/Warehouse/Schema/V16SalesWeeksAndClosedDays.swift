import GRDB

/// Migration "v16: weekly sales and closed days" on both backends (SPEC section 26): a
/// sales-audit row may be a store-week (`grain` `week`, keyed by its week start) as well as a
/// store-day, every existing row being a day; and it keeps whether the export said the store
/// was closed (`closed`: 1 closed, 0 open, NULL not said). The function that gives every role
/// each feed's last key learns the grain, so a week's last day is its week start + 6.
enum V16SalesWeeksAndClosedDays: SchemaMigration {
    static let name = "v16: weekly sales and closed days"

    /// The history trigger names its columns, so it is made again with the two new ones.
    static func sqlite(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE store_report ADD COLUMN grain TEXT NOT NULL DEFAULT 'day';
                ALTER TABLE store_report ADD COLUMN closed INTEGER;
                ALTER TABLE store_report_history ADD COLUMN grain TEXT;
                ALTER TABLE store_report_history ADD COLUMN closed INTEGER;
                DROP TRIGGER store_report_history;
                CREATE TRIGGER store_report_history AFTER UPDATE ON store_report
                WHEN NEW.ingest_run_id > coalesce(OLD.ingest_run_id, 0)
                BEGIN
                    INSERT INTO store_report_history (store_code, date, total_sales_cents, total_transactions, total_items, ccp_pct_millionths, gp_pct_millionths, upt, ads_cents, grain, closed, ingest_run_id, source_row, replaced_by_run)
                    VALUES (OLD.store_code, OLD.date, OLD.total_sales_cents, OLD.total_transactions, OLD.total_items, OLD.ccp_pct_millionths, OLD.gp_pct_millionths, OLD.upt, OLD.ads_cents, OLD.grain, OLD.closed, OLD.ingest_run_id, OLD.source_row, NEW.ingest_run_id);
                END;
                """)
    }

    /// PostgreSQL's history trigger copies by column name and needs no change.
    static let postgresSQL = """
        ALTER TABLE store_report ADD COLUMN grain TEXT COLLATE "C" NOT NULL DEFAULT 'day',
            ADD COLUMN closed BIGINT;
        ALTER TABLE store_report_history ADD COLUMN grain TEXT COLLATE "C", ADD COLUMN closed BIGINT;
        CREATE OR REPLACE FUNCTION ddkpi_feed_last_keys(as_of TEXT) RETURNS TABLE (table_name TEXT, grain TEXT, last_key TEXT)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT 'store_report', grain, max(date) FROM store_report WHERE date <= as_of GROUP BY grain
            UNION ALL SELECT 'credit_report', 'day', max(date) FROM credit_report WHERE date <= as_of
            UNION ALL SELECT 'crm_intake_report', 'day', max(date) FROM crm_intake_report WHERE date <= as_of
            UNION ALL SELECT 'birdeye_report', 'totals', max(week_start) FROM birdeye_report
                WHERE week_start <= as_of AND day_0 IS NULL
            UNION ALL SELECT 'birdeye_report', 'days', max(week_start) FROM birdeye_report
                WHERE week_start <= as_of AND day_0 IS NOT NULL
            UNION ALL SELECT 'outbound_call_report', 'totals', max(week_start) FROM outbound_call_report
                WHERE week_start <= as_of AND day_0 IS NULL
            UNION ALL SELECT 'outbound_call_report', 'days', max(week_start) FROM outbound_call_report
                WHERE week_start <= as_of AND day_0 IS NOT NULL
            UNION ALL SELECT 'employee_report', grain, max(date) FROM employee_report WHERE date <= as_of GROUP BY grain
            UNION ALL SELECT 'merch_report', grain, max(date) FROM merch_report WHERE date <= as_of GROUP BY grain
        $$;
        """
}
