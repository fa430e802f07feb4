/// One database a warehouse lives in: SQLite or PostgreSQL. Everything else in the module is
/// written once, against `SQLSession`; a backend opens sessions, runs transactions, keeps its
/// migrations' bookkeeping and takes the ingest lock.
protocol WarehouseBackend: AnyObject {
    /// Runs `body` on a consistent snapshot, changing nothing.
    func read<T>(_ body: (any SQLSession) throws -> T) throws -> T

    /// Runs `body` in one write transaction: committed when it returns `true`, rolled back when
    /// it returns `false` or throws.
    func transaction(_ body: (any SQLSession) throws -> Bool) throws

    /// Runs an ingest's `body` in one write transaction as `transaction` does. Its writer checks
    /// the store every feed row names once, before it returns (`RecordWriter.finish`), so the
    /// backend may skip its own check per row: SQLite's foreign keys are off for it, and its
    /// secure delete (what it would wipe, the ingest keeps in history); a committed file's
    /// pages are checkpointed into the database before it returns.
    func ingestTransaction(_ body: (any SQLSession) throws -> Bool) throws

    /// The names of the migrations this warehouse lacks, in order.
    func pendingMigrations() throws -> [String]

    /// Applies the pending migrations (the caller holds the ingest lock).
    func migrate() throws

    /// Takes the ingest lock if nobody holds it (`nil` when somebody does).
    func tryIngestLock() throws -> IngestLock?
}

extension WarehouseBackend {
    /// Runs `body` in a write transaction that commits when it returns.
    func write<T>(_ body: (any SQLSession) throws -> T) throws -> T {
        var value: T?
        try transaction { session in
            value = try body(session)
            return true
        }
        guard let value else { throw WarehouseError(message: "a write transaction returned nothing") }
        return value
    }
}

/// The ingest lock (SPEC section 5): while one process holds it, no other ingest, cron run or
/// migration starts. A file lock beside a SQLite warehouse, an advisory lock on PostgreSQL.
public final class IngestLock {
    private var releaseAction: (() -> Void)?

    init(release: @escaping () -> Void) { releaseAction = release }

    /// Releases the lock (once; later calls do nothing).
    public func release() {
        releaseAction?()
        releaseAction = nil
    }

    deinit { release() }
}
