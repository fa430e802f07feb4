import GRDB

/// Migration "v8: alarms in the ledger" on both backends (SPEC section 18): how many alarms the
/// ingest gate found in each run's store-days, and whether they were accepted
/// (`--accept-alarms`).
enum V08AlarmsInTheLedger: SchemaMigration {
    static let name = "v8: alarms in the ledger"

    static let postgresSQL = """
        ALTER TABLE ingest_run ADD COLUMN alarms INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE ingest_run ADD COLUMN alarms_accepted INTEGER NOT NULL DEFAULT 0;
        """

    static func sqlite(_ db: Database) throws { try db.execute(sql: postgresSQL) }
}
