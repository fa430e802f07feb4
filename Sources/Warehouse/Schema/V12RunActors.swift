import GRDB

/// Migration "v12: who ran each run, and where" on both backends (SPEC section 23): each ledger
/// run's actor (the PostgreSQL session user, or the operating-system user on SQLite) and host;
/// runs from before this step have neither.
enum V12RunActors: SchemaMigration {
    static let name = "v12: who ran each run, and where"

    static func sqlite(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE ingest_run ADD COLUMN actor TEXT;
                ALTER TABLE ingest_run ADD COLUMN host TEXT;
                """)
    }

    static let postgresSQL = """
        ALTER TABLE ingest_run ADD COLUMN actor TEXT COLLATE "C";
        ALTER TABLE ingest_run ADD COLUMN host TEXT COLLATE "C";
        """
}
