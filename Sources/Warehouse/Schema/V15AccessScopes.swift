import GRDB

/// Migration "v15: who sees which stores" (SPEC section 23): on PostgreSQL, the scopes `ddkpi
/// access` grants, and row-level security, enabled and forced, on every table that holds store
/// data: a role `access` scoped reads only the rows of its stores; the owner (the role that
/// migrates) and any role the owner granted rights to without a scope keep what their rights
/// give; each feed's last data day over every store stays readable to all
/// (`ddkpi_feed_last_keys`, SPEC section 7). SQLite has no roles: a pack is how a file is scoped.
enum V15AccessScopes: SchemaMigration {
    static let name = "v15: who sees which stores"

    static func sqlite(_ db: Database) throws {}

    static let postgresSQL = """
        CREATE TABLE access_role (
            role_name TEXT COLLATE "C" PRIMARY KEY,
            scope TEXT COLLATE "C" NOT NULL CHECK (scope IN ('all', 'region', 'stores')),
            region TEXT COLLATE "C",
            created_role BOOLEAN NOT NULL,
            granted_at TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE access_store (
            role_name TEXT COLLATE "C" NOT NULL REFERENCES access_role (role_name) ON DELETE CASCADE,
            store_code TEXT COLLATE "C" NOT NULL,
            PRIMARY KEY (role_name, store_code)
        );
        CREATE FUNCTION ddkpi_visible_stores() RETURNS SETOF TEXT
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT s.code FROM store s JOIN access_role r ON r.role_name = session_user
            WHERE r.scope = 'all' OR (r.scope = 'region' AND s.region = r.region)
               OR (r.scope = 'stores' AND s.code IN (
                   SELECT a.store_code FROM access_store a WHERE a.role_name = r.role_name))
        $$;
        CREATE FUNCTION ddkpi_is_scoped(role_name TEXT) RETURNS BOOLEAN
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT EXISTS (SELECT 1 FROM access_role r WHERE r.role_name = ddkpi_is_scoped.role_name)
        $$;
        CREATE FUNCTION ddkpi_feed_last_keys(as_of TEXT) RETURNS TABLE (table_name TEXT, grain TEXT, last_key TEXT)
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path FROM CURRENT AS $$
            SELECT 'store_report', 'day', max(date) FROM store_report WHERE date <= as_of
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
        DO $$
        DECLARE
            target RECORD;
        BEGIN
            FOR target IN SELECT * FROM (VALUES
                ('store', 'code IN (SELECT ddkpi_visible_stores())'),
                ('store_history', 'code IN (SELECT ddkpi_visible_stores())'),
                ('store_alias', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('store_alias_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('goal', 'scope = ''global'' OR scope IN (SELECT ddkpi_visible_stores())'),
                ('goal_history', 'scope = ''global'' OR scope IN (SELECT ddkpi_visible_stores())'),
                ('store_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('store_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('credit_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('credit_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('crm_intake_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('crm_intake_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('birdeye_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('birdeye_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('outbound_call_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('outbound_call_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('employee_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('employee_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('merch_report', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('merch_report_history', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('store_month_rollup', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('ingest_run_store', 'store_code IN (SELECT ddkpi_visible_stores())'),
                ('ingest_run', 'EXISTS (SELECT 1 FROM ingest_run_store s WHERE s.run_id = ingest_run.id)'),
                ('employee', 'EXISTS (SELECT 1 FROM employee_report r WHERE r.employee_id = employee.employee_id)'),
                ('employee_history',
                 'EXISTS (SELECT 1 FROM employee_report r WHERE r.employee_id = employee_history.employee_id)'),
                ('vendor', 'EXISTS (SELECT 1 FROM merch_report r WHERE r.vendor_key = vendor.vendor_key)'),
                ('vendor_history',
                 'EXISTS (SELECT 1 FROM merch_report r WHERE r.vendor_key = vendor_history.vendor_key)'),
                ('access_role', 'role_name = session_user'),
                ('access_store', 'role_name = session_user')
            ) AS tables (name, visible)
            LOOP
                EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', target.name);
                EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', target.name);
                EXECUTE format('CREATE POLICY ddkpi_owner ON %I TO CURRENT_USER USING (true) WITH CHECK (true)',
                    target.name);
                EXECUTE format('CREATE POLICY ddkpi_scope ON %I FOR SELECT USING (%s)', target.name, target.visible);
                EXECUTE format('CREATE POLICY ddkpi_unscoped ON %I USING ((SELECT NOT ddkpi_is_scoped(current_user)))',
                    target.name);
            END LOOP;
        END
        $$;
        """
}
