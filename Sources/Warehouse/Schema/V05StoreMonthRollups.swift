import GRDB

/// Migration "v5: store-month rollups" on both backends: the store-month rollups.
enum V05StoreMonthRollups: SchemaMigration {
    static let name = "v5: store-month rollups"

    static func sqlite(_ db: Database) throws {
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
        _ = try Warehouse.rebuildRollups(SQLiteSession(db))
    }

    // Empty when created: the feed tables are too (no PostgreSQL warehouse predates v5).
    static let postgresSQL = """
        CREATE TABLE store_month_rollup (
            store_code TEXT COLLATE "C" NOT NULL,
            month TEXT COLLATE "C" NOT NULL,
            sales_cents BIGINT NOT NULL,
            transactions BIGINT NOT NULL,
            items BIGINT NOT NULL,
            ccp_weighted TEXT COLLATE "C" NOT NULL,
            ccp_items BIGINT NOT NULL,
            gp_weighted TEXT COLLATE "C" NOT NULL,
            gp_sales_cents BIGINT NOT NULL,
            applications BIGINT NOT NULL,
            reviews BIGINT NOT NULL,
            intakes BIGINT NOT NULL,
            calls BIGINT NOT NULL,
            PRIMARY KEY (month, store_code)
        );
        """
}
