import GRDB
import GRDBSQLite
import SheetStream

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

    /// Records a statement that upserted `rows` rows, of which `changed` were inserted or changed.
    mutating func record(rows: Int, changed: Int) {
        self.changed += changed
        unchanged += rows - changed
    }

    func counts(_ db: Database) throws -> UpsertCounts {
        let inserted = (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0) - rowsBefore
        return UpsertCounts(inserted: inserted, updated: changed - inserted, unchanged: unchanged)
    }
}

/// An `INSERT … VALUES (…), (…) ON CONFLICT(key) DO UPDATE … WHERE changed` statement for one
/// table (https://sqlite.org/lang_upsert.html), for any number of rows at once.
///
/// The `WHERE` clause leaves identical rows untouched, so SQLite's change count tells changed
/// rows from unchanged ones. Many rows per statement spread SQLite's per-statement work over
/// the batch.
struct UpsertStatement {
    let table: String
    let columnCount: Int
    private let head: String
    private let tail: String
    private let rowPlaceholders: String

    init(table: String, key: [String], values: [String], untracked: [String] = []) {
        let columns = key + values + untracked
        let assignments = (values + untracked).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let changed = values.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        self.table = table
        columnCount = columns.count
        head = "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        rowPlaceholders = "(" + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        tail = " ON CONFLICT(\(key.joined(separator: ", "))) DO UPDATE SET \(assignments) WHERE \(changed)"
    }

    /// The SQL for `rows` rows.
    func sql(rows: Int) -> String {
        head + repeatElement(rowPlaceholders, count: rows).joined(separator: ", ") + tail
    }

    /// Runs `statement` (prepared from `sql(rows:)`) with `values`, `columnCount` per row in
    /// column order; returns how many rows were inserted or changed.
    ///
    /// Binds through the SQLite C API: building GRDB `StatementArguments` from existential values
    /// cost more than the upsert itself on million-row files.
    func run(_ db: Database, _ values: PendingValues, on statement: Statement) throws -> Int {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        let status = values.bind(to: handle) { sqlite3_step(handle) }
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
        return Int(sqlite3_changes(db.sqliteConnection))
    }
}

/// The values of the rows waiting for one upsert statement, held without an allocation per
/// value: numbers inline and all text in one byte arena, which stays put while the statement
/// runs, so SQLite reads it in place (`SQLITE_STATIC`) instead of copying it.
struct PendingValues {
    private enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(offset: Int, count: Int)
    }

    private var values: [Value] = []
    private var text: [UInt8] = []

    init(capacity: Int) {
        values.reserveCapacity(capacity)
        text.reserveCapacity(capacity * 8)
    }

    var isEmpty: Bool { values.isEmpty }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    mutating func add(_ value: Int?) { values.append(value.map { .integer(Int64($0)) } ?? .null) }
    mutating func add(_ value: Int64?) { values.append(value.map(Value.integer) ?? .null) }
    mutating func add(_ value: Double?) { values.append(value.map(Value.real) ?? .null) }

    mutating func add(_ value: String?) {
        guard let value else { return values.append(.null) }
        let offset = text.count
        text.append(contentsOf: value.utf8)
        values.append(.text(offset: offset, count: text.count - offset))
    }

    /// Adds a date as `YYYY-MM-DD` text, written straight into the arena in one append.
    mutating func add(_ date: CivilDate) {
        guard (0...9999).contains(date.year), (1...12).contains(date.month), (1...31).contains(date.day) else {
            return add(date.iso8601)
        }
        let digit = { (number: Int) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10) }
        let (year, month, day) = (date.year, date.month, date.day)
        let bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            digit(year / 1000), digit(year / 100), digit(year / 10), digit(year), UInt8(ascii: "-"),
            digit(month / 10), digit(month), UInt8(ascii: "-"), digit(day / 10), digit(day))
        let offset = text.count
        withUnsafeBytes(of: bytes) { text.append(contentsOf: $0) }
        values.append(.text(offset: offset, count: 10))
    }

    /// SQLite copies the bytes (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds every value to `handle`'s parameters in order and runs `body` while the text they
    /// point into is valid.
    func bind(to handle: OpaquePointer?, _ body: () -> Int32) -> Int32 {
        text.withUnsafeBufferPointer { arena in
            let base = arena.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let number): sqlite3_bind_int64(handle, index, number)
                case .real(let number): sqlite3_bind_double(handle, index, number)
                case .text(let start, let count):
                    if let base {
                        sqlite3_bind_text(handle, index, base + start, Int32(count), nil)
                    } else {
                        // Only empty strings and no arena: still text, never NULL.
                        sqlite3_bind_text(handle, index, "", 0, Self.transient)
                    }
                }
            }
            return body()
        }
    }
}
