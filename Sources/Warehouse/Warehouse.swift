import Feeds
import Foundation
import GRDB

/// The SQLite warehouse (SPEC section 5): one file, schema created and migrated by the program,
/// WAL mode, foreign keys on. Reference data and feed records are upserted by dedup key; every
/// ingest attempt is written to the `ingest_run` ledger.
public final class Warehouse {
    /// The database file's path.
    public let path: String
    let pool: DatabasePool
    /// Whether reports read whole months from the store-month rollups (SPEC section 13). Off,
    /// they sum the feed tables; both give the same bits. On by default; tests turn it off
    /// (`DDKPI_BYPASS_ROLLUPS=1`) to prove that.
    public var usesRollups = Warehouse.rollupsEnabledByEnvironment

    /// How a command opens the warehouse (SPEC section 5).
    public enum OpenMode: Sendable {
        /// Create the file if needed and apply pending migrations (write commands, under the
        /// ingest lock when migrations are pending).
        case migrating
        /// Open an existing warehouse whose schema is this build's, changing nothing: a missing
        /// file or an older schema is an error.
        case readOnly
    }

    /// Opens the warehouse at `path`: creating and migrating it, or (`.readOnly`) only reading an
    /// existing, current one.
    public init(path: String, mode: OpenMode = .migrating) throws {
        if mode == .readOnly, !FileManager.default.fileExists(atPath: path) {
            throw WarehouseError(message: "no warehouse at \(path) (run `ddkpi stores import` first)")
        }
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
        switch mode {
        case .migrating:
            do {
                try Self.migrator.migrate(pool)
            } catch {
                throw WarehouseError(message: "cannot migrate the warehouse \(path): \(error)")
            }
        case .readOnly:
            let pending = try pendingMigrations()
            guard pending.isEmpty else {
                throw WarehouseError(
                    message: "the warehouse \(path) has an older schema (pending: \(pending.joined(separator: ", "))); run `ddkpi migrate`")
            }
        }
    }

    /// Whether the warehouse at `path` exists and has migrations this build would apply.
    public static func hasPendingMigrations(path: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        return try !pendingMigrations(path: path).isEmpty
    }

    /// The names of the migrations the warehouse at `path` lacks, in order (all of them when
    /// there is no file).
    public static func pendingMigrations(path: String) throws -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { return migrator.migrations }
        return try DatabaseQueue(path: path).read { db in try pending(db) }
    }

    private func pendingMigrations() throws -> [String] { try pool.read { db in try Self.pending(db) } }

    private static func pending(_ db: Database) throws -> [String] {
        let applied = try migrator.appliedIdentifiers(db)
        return migrator.migrations.filter { !applied.contains($0) }
    }

    /// Runs `body` in a read transaction.
    public func read<T>(_ body: (Database) throws -> T) throws -> T { try pool.read(body) }

    /// The store directory feeds resolve store cells through.
    public func storeDirectory() throws -> StoreDirectory {
        StoreDirectory(stores: try stores())
    }

    /// Every store with its aliases, by code.
    public func stores() throws -> [StoreRecord] {
        try pool.read { db in
            var aliases: [String: [String]] = [:]
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT store_code, alias FROM store_alias ORDER BY store_code, alias") {
                aliases[row["store_code"], default: []].append(row["alias"])
            }
            return try GRDB.Row.fetchAll(db, sql: "SELECT code, name, region, status FROM store ORDER BY code").map { row in
                let code: String = row["code"]
                return StoreRecord(
                    code: code, name: row["name"], region: row["region"], status: row["status"],
                    aliases: aliases[code] ?? [])
            }
        }
    }
}

/// A warehouse problem: the database cannot be opened, written or migrated.
public struct WarehouseError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
