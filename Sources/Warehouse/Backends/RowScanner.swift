import GRDB
import GRDBSQLite

/// Steps a prepared statement through SQLite's C API and hands each row to a closure, for the
/// hot read paths where building a GRDB `Row` per row would cost more than the query.
struct RowScanner {
    /// The current row's columns (valid only inside the closure).
    struct Row: ScannedRow {
        fileprivate let handle: OpaquePointer?

        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

        func optionalInt64(_ column: Int32) -> Int64? {
            sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, column)
        }

        func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

        func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
            guard let text = sqlite3_column_text(handle, column) else { return nil }
            return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
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
                    resultCode: ResultCode(rawValue: status),
                    message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                    sql: statement.sql)
            }
            try body(Row(handle: handle))
        }
    }
}
