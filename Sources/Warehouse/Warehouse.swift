import CivilCalendar
import Feeds
import Foundation

/// The warehouse (SPEC sections 5 and 14): feed records upserted by dedup key, reference data,
/// goals, the `ingest_run` ledger and the store-month rollups, in a SQLite file (the default)
/// or on a PostgreSQL server. Its schema is created and migrated by the program; every ingest
/// attempt is written to the ledger. Callers do not know which database they talk to.
public final class Warehouse {
    /// Where the warehouse lives.
    public let location: DatabaseLocation
    let backend: any WarehouseBackend
    /// Whether reports read whole months from the store-month rollups (SPEC section 13). Off,
    /// they sum the feed tables; both give the same bits. On by default; tests turn it off
    /// (`DDKPI_BYPASS_ROLLUPS=1`) to prove that.
    public var usesRollups = Warehouse.rollupsEnabledByEnvironment
    /// The migrations this opening applied, in order.
    public private(set) var appliedMigrations: [String] = []
    /// The role the warehouse is read as and its `ddkpi access` scope (`scopedReader()`).
    let readerLookup = LazyValue<(role: String, scope: AccessScope)?>()

    /// How a command opens the warehouse (SPEC section 5).
    public enum OpenMode: Sendable {
        /// Create the warehouse if needed and apply pending migrations under the ingest lock
        /// (write commands).
        case migrating
        /// Open an existing warehouse whose schema is this build's, read-only and changing
        /// nothing (a SQLite file read-only, PostgreSQL in read-only transactions): a missing
        /// warehouse or an older schema is an error.
        case readOnly
    }

    /// Opens the SQLite warehouse at `path`, or the PostgreSQL one when `path` is a
    /// `postgresql://` URL.
    public convenience init(path: String, mode: OpenMode = .migrating) throws {
        try self.init(location: DatabaseLocation(path), mode: mode)
    }

    /// Opens the warehouse at `location`: creating and migrating it, or (`.readOnly`) only
    /// reading an existing, current one.
    public init(location: DatabaseLocation, mode: OpenMode = .migrating) throws {
        self.location = location
        let missing = WarehouseError(message: "no warehouse at \(location) (run `ddkpi stores import` first)")
        switch location {
        case .sqlite(let path):
            if mode == .readOnly, !FileManager.default.fileExists(atPath: path) { throw missing }
            backend = try SQLiteBackend(path: path, readOnly: mode == .readOnly)
        case .postgres(let url):
            backend = try PostgresBackend(url: url)
        }
        let pending = try backend.pendingMigrations()
        switch mode {
        case .migrating:
            try refuseScopedWriter()
            guard !pending.isEmpty else { return }
            guard let lock = try backend.tryIngestLock() else { throw WarehouseLockHeld(location: location) }
            defer { lock.release() }
            // Another process may have migrated between the first look and the lock: look again.
            appliedMigrations = try backend.pendingMigrations()
            do {
                try backend.migrate()
            } catch {
                throw WarehouseError(message: "cannot migrate the warehouse \(location): \(error)")
            }
        case .readOnly:
            if pending.count == Self.migrationNames.count { throw missing }
            guard pending.isEmpty else {
                throw WarehouseError(
                    message:
                        "the warehouse \(location) has an older schema (pending: \(pending.joined(separator: ", "))); run `ddkpi migrate`"
                )
            }
        }
    }

    /// The named migrations of this build, in order (the same on both backends).
    public static var migrationNames: [String] { migrator.migrations }

    /// The migrations the warehouse at `location` lacks, without creating or changing anything
    /// (all of them when there is no warehouse yet).
    public static func pendingMigrations(at location: DatabaseLocation) throws -> [String] {
        switch location {
        case .sqlite(let path): return try SQLiteBackend.pendingMigrations(path: path)
        case .postgres(let url): return try PostgresBackend(url: url).pendingMigrations()
        }
    }

    /// Takes the ingest lock (SPEC section 5) if no other process holds it; `nil` when one does.
    public func tryIngestLock() throws -> IngestLock? { try backend.tryIngestLock() }

    /// The store directory feeds resolve store cells through.
    public func storeDirectory() throws -> StoreDirectory {
        StoreDirectory(stores: try stores())
    }

    /// Every store with its aliases, by code.
    public func stores() throws -> [StoreRecord] {
        try backend.read { session in
            var aliases: [String: [String]] = [:]
            try session.scan("SELECT store_code, alias FROM store_alias ORDER BY store_code, alias") { row in
                aliases[row.text(0), default: []].append(row.text(1))
            }
            var stores: [StoreRecord] = []
            try session.scan("SELECT code, name, region, status, opened, closed FROM store ORDER BY code") { row in
                let code = row.text(0)
                stores.append(
                    StoreRecord(
                        code: code, name: row.text(1), region: row.optionalText(2), status: row.text(3),
                        aliases: aliases[code] ?? [], opened: row.optionalText(4).flatMap(CivilDate.init(iso8601:)),
                        closed: row.optionalText(5).flatMap(CivilDate.init(iso8601:))))
            }
            return stores
        }
    }

    /// The first `sales-audit` day of each of `stores` that has one: the day comparable-store
    /// sales count a store from when the directory gives no `opened` day (SPEC section 21).
    ///
    /// Both walks go in primary-key order and stop when every store is placed: the store-month
    /// rollups, month by month, say in which month each store's rows begin; then that month's
    /// sales rows, day by day, give the first day (a store whose first month had other feeds
    /// only moves on to the next month). No `GROUP BY` sorts the tables.
    public func firstSalesDates(of stores: Set<String>) throws -> [String: CivilDate] {
        guard !stores.isEmpty else { return [:] }
        let sales = FeedTables.salesAudit.name
        return try backend.read { session in
            guard
                let first = try session.textRows(
                    "SELECT (SELECT min(month) FROM store_month_rollup), (SELECT max(month) FROM store_month_rollup)",
                    columns: 2
                )
                .first,
                let firstMonth = first[0].flatMap({ CivilDate(iso8601: $0 + "-01") }),
                let lastMonth = first[1].flatMap({ CivilDate(iso8601: $0 + "-01") })
            else { return [:] }
            var pending: [String: CivilDate] = [:]  // store → the month its rows begin
            var month = firstMonth
            while month <= lastMonth, pending.count < stores.count {
                try session.scan(
                    "SELECT store_code FROM store_month_rollup WHERE month = ?",
                    [.text(month.iso8601Month)]
                ) { row in
                    let store = row.text(0)
                    if stores.contains(store), pending[store] == nil { pending[store] = month }
                }
                month = month.adding(days: CivilDate.daysIn(month: month.month, year: month.year))
            }
            var dates: [String: CivilDate] = [:]
            while let month = pending.values.min(), month <= lastMonth {
                var wanted = Set(pending.filter { $0.value == month }.keys)
                let end = month.adding(days: CivilDate.daysIn(month: month.month, year: month.year) - 1)
                // Day by day: most stores' rows begin on the month's first day.
                var day = month
                while day <= end, !wanted.isEmpty {
                    try session.scan("SELECT store_code FROM \(sales) WHERE date = ?", [.text(day.iso8601)]) { row in
                        let store = row.text(0)
                        if wanted.remove(store) != nil { dates[store] = day }
                    }
                    day = day.adding(days: 1)
                }
                for store in wanted { pending[store] = end.adding(days: 1) }
                for store in dates.keys { pending[store] = nil }
            }
            return dates
        }
    }

    /// Every row of a query as text (`nil` for NULL): for checks and tests that look at the
    /// tables themselves, on either backend. `?` parameters take `arguments`.
    public func rows(_ sql: String, _ arguments: [String] = [], columns: Int) throws -> [[String?]] {
        try backend.read { session in try session.textRows(sql, arguments.map(SQLValue.text), columns: columns) }
    }

    /// The first column of a query's first row as an integer (`nil` for none or NULL).
    public func integer(_ sql: String, _ arguments: [String] = []) throws -> Int64? {
        try backend.read { session in try session.integer(sql, arguments.map(SQLValue.text)) }
    }
}

/// A warehouse problem: the database cannot be opened, written or migrated.
public struct WarehouseError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}

extension WarehouseError {
    /// A database that has tables but is not a ddkpi warehouse (SPEC section 5): refused, never
    /// read nor extended with ddkpi's tables. `place` names it (a path, or a schema and a URL
    /// with its password hidden); at most ten of its tables are named.
    static func notAWarehouse(_ place: String, tables: [String]) -> WarehouseError {
        let more = tables.count > 10 ? ", … (\(tables.count - 10) more)" : ""
        let shown = tables.prefix(10).joined(separator: ", ") + more
        return WarehouseError(
            message: "\(place) has tables (\(shown)) but is not a ddkpi warehouse; ddkpi leaves it as it is "
                + "(give --db a ddkpi warehouse or a new one)")
    }
}

/// Another process holds the ingest lock (SPEC section 5: exit 3).
public struct WarehouseLockHeld: Error, CustomStringConvertible, Sendable {
    public var location: DatabaseLocation
    public var description: String { "another ingest holds the lock of \(location); not running" }
}
