import Foundation
import GRDB

/// The embedded warehouse (SPEC section 5): one SQLite file in WAL mode with foreign keys on,
/// read through a pool of connections, migrated by GRDB's migrator.
final class SQLiteBackend: WarehouseBackend {
    let path: String
    private let pool: DatabasePool

    /// Opens (creating) the file at `path`.
    init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // 32 MiB of page cache: a million-row file's upserts stay in memory (the default 2 MiB
            // thrashed), within the ingest's memory budget.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Statement journals (multi-row upserts keep one per statement) stay in memory instead
            // of a file in /var/tmp, which cost a million-row ingest about 5 GB of writes.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // 16 KiB pages for new warehouses (an existing file keeps its own): a quarter of the
            // page writes and B-tree splits of 4 KiB pages on bulk ingests.
            try db.execute(sql: "PRAGMA page_size = 16384")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch {
            throw WarehouseError(message: "cannot open the warehouse \(path): \(error)")
        }
    }

    /// The migrations a SQLite warehouse at `path` lacks, without creating it (all of them when
    /// there is no file).
    static func pendingMigrations(path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return Warehouse.migrator.migrations }
        return try DatabaseQueue(path: path).read { db in try pending(db) }
    }

    func read<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        try pool.read { db in try body(SQLiteSession(db)) }
    }

    func transaction(_ body: (any SQLSession) throws -> Bool) throws {
        try pool.writeWithoutTransaction { db in
            try db.inTransaction { try body(SQLiteSession(db)) ? .commit : .rollback }
        }
    }

    func pendingMigrations() throws -> [String] { try pool.read { db in try Self.pending(db) } }

    func migrate() throws { try Warehouse.migrator.migrate(pool) }

    private static func pending(_ db: Database) throws -> [String] {
        let applied = try Warehouse.migrator.appliedIdentifiers(db)
        return Warehouse.migrator.migrations.filter { !applied.contains($0) }
    }

    /// An exclusive `flock` on `PATH.lock` beside the database.
    func tryIngestLock() throws -> IngestLock? {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WarehouseError(message: "cannot open the lock file \(lockPath)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return IngestLock {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}
