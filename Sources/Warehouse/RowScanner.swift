import GRDB
import GRDBSQLite
#if canImport(Glibc)
import Glibc
#endif

/// Steps a prepared statement through SQLite's C API and hands each row to a closure, for the
/// hot read paths where building a GRDB `Row` per row would cost more than the query.
struct RowScanner {
    /// The current row's columns (valid only inside the closure).
    struct Row {
        fileprivate let handle: OpaquePointer?

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

        /// `nil` for NULL.
        func optionalInt64(_ column: Int32) -> Int64? {
            sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
        }

        /// The column's first bytes (at most `prefix`, and at most 7) packed with their count into
        /// one integer, a cheap key for short text such as store codes; `nil` when longer than 7 bytes.
        func packedText(_ column: Int32, prefix: Int = 7) -> UInt64? {
            guard let bytes = sqlite3_column_text(handle, column) else { return 0 }
            let count = min(Int(sqlite3_column_bytes(handle, column)), prefix)
            guard count <= 7 else { return nil }
            var packed = UInt64(count) << 56
            for index in 0..<count { packed |= UInt64(bytes[index]) << (8 * UInt64(index)) }
            return packed
        }

        /// A `YYYY-MM-DD` column as the number `yyyymmdd`, a `YYYY-MM` one as `yyyymm31` (after
        /// every day of its month): dates compared without making strings.
        func dateNumber(_ column: Int32) -> Int {
            guard let bytes = sqlite3_column_text(handle, column) else { return 0 }
            let count = Int(sqlite3_column_bytes(handle, column))
            var number = 0
            for index in 0..<count where bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") {
                number = number * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return count == 7 ? number * 100 + 31 : number
        }

        /// Whether the column's text is `text`, compared byte for byte without making a String.
        func text(_ column: Int32, equals text: String) -> Bool {
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count == text.utf8.count else { return false }
            guard count > 0 else { return true }
            guard let bytes = sqlite3_column_text(handle, column) else { return false }
            var copy = text
            return copy.withUTF8 { utf8 in utf8.baseAddress.map { memcmp($0, bytes, count) == 0 } ?? false }
        }

        /// The column's text (at most its first `prefix` bytes).
        func text(_ column: Int32, prefix: Int = .max) -> String {
            guard let bytes = sqlite3_column_text(handle, column) else { return "" }
            let count = min(Int(sqlite3_column_bytes(handle, column)), prefix)
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    private let statement: Statement

    /// A scanner over `statement`, whose arguments are already set.
    init(_ statement: Statement) { self.statement = statement }

    /// Runs the statement from its first row, calling `body` on each.
    func forEach(_ body: (Row) throws -> Void) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        defer { sqlite3_reset(handle) }
        while true {
            let status = sqlite3_step(handle)
            if status == SQLITE_DONE { return }
            guard status == SQLITE_ROW else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                    sql: statement.sql)
            }
            try body(Row(handle: handle))
        }
    }
}
