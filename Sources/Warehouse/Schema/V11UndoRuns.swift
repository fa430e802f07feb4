import GRDB

/// Migration "v11: undo runs" on both backends (SPEC section 16): an undo is a run of the
/// ledger, with no path (`path` may be NULL), the run it undid (`undoes_run`) and the keys it
/// deleted (`deleted`).
enum V11UndoRuns: SchemaMigration {
    static let name = "v11: undo runs"

    static let postgresSQL = """
        ALTER TABLE ingest_run ALTER COLUMN path DROP NOT NULL;
        ALTER TABLE ingest_run ADD COLUMN undoes_run BIGINT;
        ALTER TABLE ingest_run ADD COLUMN deleted BIGINT NOT NULL DEFAULT 0;
        """

    /// SQLite cannot drop a `NOT NULL`: the ledger is made again from its own definition with
    /// that one change (https://sqlite.org/lang_altertable.html#otheralter), under the
    /// migrator's deferred foreign key checks.
    static func sqlite(_ db: Database) throws {
        let definition =
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'ingest_run'")
            ?? ""
        let notNullPath = "path TEXT NOT NULL"
        guard definition.contains(notNullPath), let columns = definition.firstIndex(of: "(") else {
            throw WarehouseError(message: "the ledger's definition lacks `\(notNullPath)`: \(definition)")
        }
        let rebuilt =
            "CREATE TABLE ingest_run_v11 "
            + definition[columns...].replacingOccurrences(of: notNullPath, with: "path TEXT")
        try db.execute(
            sql: """
                \(rebuilt);
                INSERT INTO ingest_run_v11 SELECT * FROM ingest_run;
                DROP TABLE ingest_run;
                ALTER TABLE ingest_run_v11 RENAME TO ingest_run;
                CREATE INDEX ingest_run_sha ON ingest_run(sha256, status);
                ALTER TABLE ingest_run ADD COLUMN undoes_run INTEGER;
                ALTER TABLE ingest_run ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
                """)
    }
}
