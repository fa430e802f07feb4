import GRDB

/// Per-file upsert counts.
public struct UpsertCounts: Sendable, Equatable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// Counts what a run of upserts into one table did: rows that changed are told from unchanged
/// ones by SQLite's change count; how many of the changed were inserts is the growth of the
/// table's row count over the run.
struct UpsertTally {
    let table: String
    private let rowsBefore: Int
    private var changed = 0
    private var unchanged = 0

    init(_ db: Database, table: String) throws {
        self.table = table
        rowsBefore = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
    }

    mutating func record(changed didChange: Bool) {
        if didChange { changed += 1 } else { unchanged += 1 }
    }

    func counts(_ db: Database) throws -> UpsertCounts {
        let inserted = (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0) - rowsBefore
        return UpsertCounts(inserted: inserted, updated: changed - inserted, unchanged: unchanged)
    }
}

/// An `INSERT … ON CONFLICT(key) DO UPDATE … WHERE changed` statement for one table
/// (https://sqlite.org/lang_upsert.html), run through GRDB's statement cache.
///
/// The `WHERE` clause leaves identical rows untouched, so SQLite reports no change for them.
struct UpsertStatement {
    let sql: String

    init(table: String, key: [String], values: [String], untracked: [String] = []) {
        let columns = key + values + untracked
        let assignments = (values + untracked).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let changed = values.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        sql = """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
            ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(assignments) WHERE \(changed)
            """
    }

    /// Runs the statement with `arguments` (key, values, untracked, in order); returns whether
    /// the row was inserted or changed.
    func run(_ db: Database, _ arguments: StatementArguments) throws -> Bool {
        let statement = try db.cachedStatement(sql: sql)
        try statement.execute(arguments: arguments)
        return db.changesCount > 0
    }
}
