import Foundation
import PostgresClient

/// A warehouse on a PostgreSQL server (SPEC section 14): one connection, used by one
/// transaction at a time; reads run in a read-only repeatable-read snapshot. Migrations are
/// the SQLite warehouse's named steps, in PostgreSQL's dialect, recorded in `ddkpi_migrations`.
final class PostgresBackend: WarehouseBackend {
    let url: String
    private let connection: PostgresConnection
    /// One transaction at a time on the connection.
    private let lock = NSLock()
    /// Staging tables already created on the connection.
    private var stagingTables = Set<String>()

    /// The advisory lock key of the ingest lock: "ddkpi" in ASCII.
    static let ingestLockKey: Int64 = 0x64_64_6B_70_69

    /// Connects to the server at `url`; a schema that has tables but is not a ddkpi warehouse is
    /// refused before anything is read or written.
    init(url: String) throws {
        self.url = url
        do {
            connection = try PostgresConnection(url: url)
        } catch {
            throw WarehouseError(message: "\(error)")
        }
        try refuseUnlessWarehouse()
    }

    /// Throws when the schema tables are created in (the first of the search path) has tables
    /// but no `ddkpi_migrations` (SPEC section 5: another application's schema is refused rather
    /// than extended with ddkpi's tables).
    private func refuseUnlessWarehouse() throws {
        let result: PostgresResult
        do {
            guard try !Self.isWarehouse(connection) else { return }
            result = try connection.execute(
                "SELECT current_schema(), tablename FROM pg_tables WHERE schemaname = current_schema() "
                    + "ORDER BY tablename")
        } catch {
            throw WarehouseError(message: "\(error)")
        }
        guard result.rowCount > 0 else { return }
        let tables = (0..<result.rowCount).compactMap { result.text(row: $0, column: 1) }
        let schema = result.text(row: 0, column: 0) ?? "?"
        throw WarehouseError.notAWarehouse("the schema \(schema) of \(PostgresURL.masked(url))", tables: tables)
    }

    /// Whether `ddkpi_migrations` is on the search path.
    private static func isWarehouse(_ connection: PostgresConnection) throws -> Bool {
        try connection.execute("SELECT to_regclass('ddkpi_migrations') IS NOT NULL").text(row: 0, column: 0) == "t"
    }

    func read<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let value = try body(PostgresSession(connection, stagingTables: stagingTables))
                try connection.execute("COMMIT")
                return value
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    func transaction(_ body: (any SQLSession) throws -> Bool) throws {
        try withConnection { connection in
            try connection.execute("BEGIN")
            let session = PostgresSession(connection, stagingTables: stagingTables)
            do {
                let commit = try body(session)
                try session.settle()
                try connection.execute(commit ? "COMMIT" : "ROLLBACK")
                // Staging tables created by a rolled-back transaction are gone with it.
                if commit { stagingTables = session.createdStagingTables }
            } catch {
                session.abandon()
                if connection.isConnected { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// The same transaction: each merge already checks its rows' stores (`PostgresSession`).
    func ingestTransaction(_ body: (any SQLSession) throws -> Bool) throws { try transaction(body) }

    /// Runs `body` with the connection to itself, reconnecting first if the last use lost it
    /// (its temporary staging tables went with it); a failed reconnection throws libpq's
    /// `PostgresError`, which says the server is to blame.
    private func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if !connection.isConnected {
            stagingTables.removeAll()
            try connection.reconnect()
        }
        return try body(connection)
    }

    func pendingMigrations() throws -> [String] {
        try withConnection { connection in
            let applied = try Self.appliedMigrations(connection)
            return Schema.migrations.map(\.name).filter { !applied.contains($0) }
        }
    }

    func migrate() throws {
        try withConnection { connection in
            try connection.execute("CREATE TABLE IF NOT EXISTS ddkpi_migrations (identifier TEXT PRIMARY KEY NOT NULL)")
            let applied = try Self.appliedMigrations(connection)
            for migration in Schema.migrations where !applied.contains(migration.name) {
                try connection.transaction {
                    try connection.executeScript(migration.postgresSQL)
                    try connection.execute("INSERT INTO ddkpi_migrations (identifier) VALUES ($1)", [migration.name])
                }
            }
        }
    }

    private static func appliedMigrations(_ connection: PostgresConnection) throws -> Set<String> {
        guard try isWarehouse(connection) else { return [] }
        let result = try connection.execute("SELECT identifier FROM ddkpi_migrations")
        return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
    }

    /// A session-level advisory lock on a connection of its own, held until released (or until
    /// the process ends and the server drops the connection).
    func tryIngestLock() throws -> IngestLock? {
        let holder: PostgresConnection
        do {
            holder = try PostgresConnection(url: url)
            guard try holder.tryAdvisoryLock(Self.ingestLockKey) else { return nil }
        } catch {
            throw WarehouseError(message: "\(error)")
        }
        return IngestLock { _ = try? holder.advisoryUnlock(Self.ingestLockKey) }
    }
}
