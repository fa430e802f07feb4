import Foundation
import GRDB

/// The embedded warehouse (SPEC section 5): one SQLite file in WAL mode with foreign keys on,
/// read through a pool of connections, migrated by GRDB's migrator. Read-only commands open it
/// read-only, so that a user who may read but not write the file can run every report.
final class SQLiteBackend: WarehouseBackend {
    let path: String
    private let pool: DatabasePool

    /// Opens the file at `path`: creating it and switching it to WAL mode, or (`readOnly`) only
    /// reading it, writing nothing beside it that SQLite does not need. A file that has tables
    /// but is not a ddkpi warehouse is refused either way, before anything is written to it.
    init(path: String, readOnly: Bool) throws {
        self.path = path
        if readOnly {
            pool = try Self.openReadOnly(path)
            try Self.refuseUnlessWarehouse(path, pool)
            return
        }
        if FileManager.default.fileExists(atPath: path) {
            // Look read-only first: opening for writing would switch the file to WAL mode.
            try Self.refuseUnlessWarehouse(path, try Self.openReadOnly(path))
        }
        do {
            pool = try DatabasePool(path: path, configuration: Self.configuration(readOnly: false))
        } catch {
            throw WarehouseError(message: "cannot open the warehouse \(path): \(error)")
        }
    }

    /// Foreign keys on, a busy timeout, and the connection settings of every connection.
    private static func configuration(readOnly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // A page cache large enough for a million-row file's upserts to stay in memory (the
            // default thrashed), within the ingest's memory budget.
            try db.execute(sql: "PRAGMA cache_size = -32768")
            // Statement journals (multi-row upserts keep one per statement) stay in memory instead
            // of a file in /var/tmp, which a million-row ingest wrote gigabytes to.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // 64 KiB pages, SQLite's largest, for new warehouses (an existing file keeps its
            // own). A bulk ingest writes every page to the WAL and again at the checkpoint, so
            // fewer, larger pages take fewer system calls for the same work
            // (docs/decisions.md#without-rowid-tables-and-64-kib-pages).
            if !readOnly { try db.execute(sql: "PRAGMA page_size = 65536") }
        }
        return configuration
    }

    /// Opens `path` read-only (`SQLITE_OPEN_READONLY`, SQLite's `mode=ro`): no journal mode is
    /// set and nothing is written. Reading a WAL-mode file needs its WAL index (`-shm`) and log
    /// (`-wal`), which SQLite creates beside the file if they are missing; in a folder the user
    /// may not write it cannot, and the file is opened `immutable=1` instead
    /// (https://sqlite.org/wal.html#readonly, https://sqlite.org/uri.html#uriimmutable), which
    /// reads the file alone. A non-empty `-wal` then holds commits the file lacks: that is an
    /// error rather than a report without them.
    private static func openReadOnly(_ path: String) throws -> DatabasePool {
        let configuration = configuration(readOnly: true)
        do {
            return try probed(DatabasePool(path: path, configuration: configuration))
        } catch {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            guard access(folder, W_OK) != 0 else {
                throw WarehouseError(message: "cannot open the warehouse \(path) read-only: \(error)")
            }
            let log = path + "-wal"
            let logSize = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
            guard logSize == 0 else {
                throw WarehouseError(
                    message: "cannot read the warehouse \(path): its write-ahead log \(log) holds \(logSize) bytes of "
                        + "commits not yet in the file, and SQLite cannot create the log's index (\(path)-shm) in "
                        + "\(folder), which you may not write; ask someone who may write that folder to run "
                        + "`ddkpi migrate` there, which folds the log into the file")
            }
            let uri = try immutableURI(path)
            do {
                return try probed(DatabasePool(path: uri, configuration: configuration))
            } catch let immutableError {
                throw WarehouseError(message: "cannot open the warehouse \(path) read-only: \(immutableError)")
            }
        }
    }

    /// Throws unless the file is a ddkpi warehouse (GRDB's `grdb_migrations` records ddkpi's
    /// first migration) or holds no tables yet (an empty file, or one whose first migration was
    /// interrupted, has at most an empty `grdb_migrations`): SPEC section 5 refuses another
    /// application's database rather than adding ddkpi's tables to it.
    private static func refuseUnlessWarehouse(_ path: String, _ pool: DatabasePool) throws {
        let (tables, isWarehouse): ([String], Bool)
        do {
            (tables, isWarehouse) = try pool.read { db in
                let tables = try String.fetchAll(
                    db,
                    sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' "
                        + "ESCAPE '\\' ORDER BY name")
                guard tables.contains("grdb_migrations"), let first = Warehouse.migrationNames.first else {
                    return (tables, false)
                }
                let marked = try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)", arguments: [first])
                return (tables, marked ?? false)
            }
        } catch {
            throw WarehouseError(message: "cannot open the warehouse \(path): \(error)")
        }
        guard isWarehouse || tables.allSatisfy({ $0 == "grdb_migrations" }) else {
            throw WarehouseError.notAWarehouse(path, tables: tables)
        }
    }

    /// Reads the schema, which is where a read-only WAL-mode file needs its WAL index.
    private static func probed(_ pool: DatabasePool) throws -> DatabasePool {
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        return pool
    }

    /// `file:/absolute/path?immutable=1` (https://sqlite.org/uri.html), the path percent-encoded.
    private static func immutableURI(_ path: String) throws -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else {
            throw WarehouseError(
                message: "cannot open the warehouse \(path): its path cannot be written as a SQLite URI")
        }
        return "file:\(encoded)?immutable=1"
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
        try pool.writeWithoutTransaction { db in try Self.run(body, in: db) }
    }

    /// Runs `body` in a transaction of `db`: committed when it returns `true`; whether it was.
    @discardableResult
    private static func run(_ body: (any SQLSession) throws -> Bool, in db: Database) throws -> Bool {
        var committed = false
        try db.inTransaction {
            committed = try body(SQLiteSession(db))
            return committed ? .commit : .rollback
        }
        return committed
    }

    /// Foreign keys are off for the ingest's transaction (the pragma takes effect only outside
    /// one) and on again after it, however it ended: their lookup of `store` per row is paid by
    /// every row, and the writer checks the file's stores itself
    /// (docs/decisions.md#foreign-keys-off-for-a-sqlite-ingest).
    /// Nothing else writes to a table with a foreign key in that transaction but rows that
    /// point at the run or the store it just wrote (ledger rows, a store's aliases).
    ///
    /// Secure delete is off for the transaction too, and back to what it was after it: Debian
    /// builds SQLite with it on (SQLite's own default is off,
    /// https://sqlite.org/pragma.html#pragma_secure_delete), which zeroes every page a B-tree
    /// balance rebuilds (docs/decisions.md#secure-delete-off-during-an-ingest). What it would wipe in
    /// an ingest is kept on purpose anyway: a replaced row and a replaced alias go to their
    /// history tables, and the store-month rollups are sums of the tables. Undo, which deletes,
    /// keeps it on. Each setting is restored however the transaction ended, even when the
    /// other's restoring fails.
    ///
    /// The file and its WAL are written behind meanwhile (`SQLiteWriteBehind`), and so is the
    /// checkpoint that copies a committed file's pages from the WAL into the database
    /// (`checkpointWrittenBehind`).
    func ingestTransaction(_ body: (any SQLSession) throws -> Bool) throws {
        try pool.writeWithoutTransaction { db in
            let secureDelete = try Int.fetchOne(db, sql: "PRAGMA secure_delete") ?? 1
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            let ended = Result {
                try db.execute(sql: "PRAGMA secure_delete = OFF")
                try SQLiteWriteBehind.during(databaseAt: path) {
                    if try Self.run(body, in: db) { Self.checkpointWrittenBehind(db) }
                }
            }
            let foreignKeysOn = Result { try db.execute(sql: "PRAGMA foreign_keys = ON") }
            let secureDeleteBack = Result { try db.execute(sql: "PRAGMA secure_delete = \(secureDelete)") }
            try ended.get()
            try foreignKeysOn.get()
            try secureDeleteBack.get()
        }
    }

    /// Copies the WAL's committed pages into the database with a passive checkpoint, which
    /// waits for no reader (https://sqlite.org/c3ref/wal_checkpoint_v2.html), while the
    /// write-behind still runs. Left to SQLite, a big file's pages reached the database only
    /// when the last connection closed, after the write-behind had stopped, and its
    /// `fdatasync` then waited for all of them at the end of the ingest
    /// (docs/decisions.md#checkpoint-before-the-ingest-returns). A checkpoint that fails (an I/O error, another connection's checkpoint
    /// running) leaves the pages to that close, as before; the file's rows are committed and
    /// their WAL synced either way, so its error is not the ingest's.
    private static func checkpointWrittenBehind(_ db: Database) {
        _ = try? db.checkpoint(.passive)
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
