import Foundation

/// A value bound to a statement parameter.
enum SQLValue: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as text, the way both databases print it (`nil` for NULL).
    var text: String? {
        switch self {
        case .null: return nil
        case .integer(let number): return String(number)
        case .real(let number): return "\(number)"
        case .text(let text): return text
        }
    }
}

extension SQLValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    init(stringLiteral value: String) { self = .text(value) }
    init(integerLiteral value: Int64) { self = .integer(value) }
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }
    init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    init(_ value: Int64?) { self = value.map(SQLValue.integer) ?? .null }
    init(_ value: Double?) { self = value.map(SQLValue.real) ?? .null }
}

/// One row of a query's result, read column by column (valid only inside the closure that
/// receives it). Backends give the raw bytes; everything else is derived from them here.
protocol ScannedRow {
    /// The column's bytes as text (`nil` for NULL).
    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>?
    /// The column as an integer (0 for NULL).
    func int64(_ column: Int32) -> Int64
    /// The column as an integer, `nil` for NULL.
    func optionalInt64(_ column: Int32) -> Int64?
    /// The column as a floating-point number (0 for NULL).
    func double(_ column: Int32) -> Double
}

extension ScannedRow {

    /// The column's bytes (or its first `prefix` bytes) packed with their count into one
    /// integer, a cheap key for short text such as store codes; `nil` when that is more than 7
    /// bytes, so that a longer key is compared whole, as text.
    func packedText(_ column: Int32, prefix: Int = .max) -> UInt64? {
        guard let bytes = bytes(column) else { return 0 }
        let count = min(bytes.count, prefix)
        guard count <= 7 else { return nil }
        var packed = UInt64(count) << 56
        for index in 0..<count { packed |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return packed
    }

    /// A `YYYY-MM-DD` column as the number `yyyymmdd`, a `YYYY-MM` one as `yyyymm31` (after
    /// every day of its month): dates compared without making strings.
    func dateNumber(_ column: Int32) -> Int {
        guard let bytes = bytes(column) else { return 0 }
        var number = 0
        for byte in bytes where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            number = number * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return bytes.count == 7 ? number * 100 + 31 : number
    }

    /// The column's text (at most its first `prefix` bytes); empty for NULL.
    func text(_ column: Int32, prefix: Int = .max) -> String {
        guard let bytes = bytes(column) else { return "" }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(prefix)), as: UTF8.self)
    }

    /// The column's text, `nil` for NULL.
    func optionalText(_ column: Int32) -> String? { bytes(column).map { String(decoding: $0, as: UTF8.self) } }
}

/// What the warehouse's SQL runs on: one connection of one backend, inside a read or write
/// transaction. The SQL is written once for both databases, with `?` parameters; what differs
/// (upserts, the ledger's new row id) is a requirement here.
protocol SQLSession {
    associatedtype Row: ScannedRow

    /// Runs `sql` with `arguments` and hands each row to `body`.
    func scan(_ sql: String, _ arguments: [SQLValue], _ body: (Row) throws -> Void) throws

    /// Runs a statement that returns no rows.
    func execute(_ sql: String, _ arguments: [SQLValue]) throws

    /// Runs an `INSERT` and returns the new row's `id`.
    func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64

    /// Who acts through this session, as a ledger run records it (SPEC section 23).
    func actor() throws -> String

    /// Upserts `rows` rows whose values (`upsert.columnCount` per row, in column order) are in
    /// `values`. A key may come more than once, here or in later calls: the table and the
    /// counts end as row-by-row upserts in order leave them. A backend may finish the work
    /// later (after more upserts of the same table), but before any other statement of the
    /// session; errors may surface there.
    ///
    /// `keysNew` says that no row of these had its key in an earlier row this session upserted
    /// into the table (the caller's rows so far all had keys of their own): a backend may then
    /// insert them plainly into a table that was empty before the session's first upsert of it,
    /// where no key can meet a row; should one meet a row all the same, the call fails.
    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int, keysNew: Bool) throws

    /// What this session's upserts into `table` did so far. `distinctKeys`, when the caller
    /// knows that every row it upserted into the table had a key of its own, is how many rows
    /// that was: SQLite then need not count a table that was empty before (the file's rows).
    func upsertCounts(table: String, distinctKeys: Int?) throws -> UpsertCounts

    /// The most rows one `upsert` call should carry.
    var upsertBatchSize: Int { get }

    /// Whether `upsertCounts` counts a key that the run re-sent unchanged from an earlier run
    /// (and so now holds: SPEC section 16) as updated rather than unchanged.
    var countsNewHoldersAsUpdated: Bool { get }
}

extension SQLSession {
    /// Upserts `rows` rows, keys that may have come before among them (see `upsert(_:_:rows:keysNew:)`).
    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int) throws {
        try self.upsert(upsert, values, rows: rows, keysNew: false)
    }

    /// What this session's upserts into `table` did so far.
    func upsertCounts(table: String) throws -> UpsertCounts { try upsertCounts(table: table, distinctKeys: nil) }

    func scan(_ sql: String, _ body: (Row) throws -> Void) throws { try scan(sql, [], body) }

    func execute(_ sql: String) throws { try execute(sql, []) }

    /// The first column of the first row as an integer (`nil` when no row or NULL).
    func integer(_ sql: String, _ arguments: [SQLValue] = []) throws -> Int64? {
        var value: Int64?
        var seen = false
        try scan(sql, arguments) { row in
            guard !seen else { return }
            seen = true
            value = row.optionalInt64(0)
        }
        return value
    }

    /// Every row's columns as text (`nil` for NULL).
    func textRows(_ sql: String, _ arguments: [SQLValue] = [], columns: Int) throws -> [[String?]] {
        var rows: [[String?]] = []
        try scan(sql, arguments) { row in rows.append((0..<Int32(columns)).map { row.optionalText($0) }) }
        return rows
    }
}

/// A date column's values in SQL: `?` placeholders for `values`, as `IN (…)` wants them.
func placeholders(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
