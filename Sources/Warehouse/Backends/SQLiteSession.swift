import GRDB
import GRDBSQLite

/// The warehouse's SQL on a SQLite connection (GRDB's `Database`, inside its transaction).
///
/// Upserts are multi-row `INSERT … VALUES (…), (…) ON CONFLICT(key) DO UPDATE … WHERE changed`
/// statements (https://sqlite.org/lang_upsert.html) of up to 256 rows: the `WHERE` leaves a row
/// the same run wrote with the same values untouched, and many rows per statement spread
/// SQLite's per-statement work over the batch. SQLite's change count also counts the keys a
/// later run re-sent unchanged (it becomes their holder): the pre-update hook tells those, and
/// which of the changed rows were inserts, unless the table was empty before, when its growth
/// tells and no key can have an earlier holder (`newTally`).
///
/// Rows whose keys are new (`keysNew`) into a table that was empty before are plain
/// `INSERT OR FAIL` statements instead, the first load of a table: an upsert statement (as a
/// plain `INSERT` with its default `ABORT`) keeps a statement journal, a copy of every page it
/// changes that the transaction had changed before, to undo itself should a row fail; `FAIL`
/// undoes nothing, and none is kept. Nothing is lost by that: a failed statement fails the file,
/// whose transaction rolls back whole (docs/decisions.md#plain-inserts-for-new-keys).
final class SQLiteSession: SQLSession {
    let db: Database
    /// Full-batch statements by table and kind, prepared once per session (their SQL is long).
    private var batchStatements: [BatchKey: Statement] = [:]
    /// What the upserts did, by table.
    private var tallies: [String: UpsertTally] = [:]
    /// The tables whose inserts and new holders the pre-update hook counts (`newTally`), with the
    /// indices of their tracked columns; the others' inserts tell by growth.
    private var countedByHook: [String: (counter: SQLiteChangeCounter, tracked: [Int32])] = [:]

    init(_ db: Database) { self.db = db }

    func scan(_ sql: String, _ arguments: [SQLValue], _ body: (RowScanner.Row) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments(Self.arguments(arguments))
        try RowScanner(statement).forEach(body)
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try db.execute(sql: sql, arguments: Self.arguments(arguments))
    }

    func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try execute(sql, arguments)
        return db.lastInsertedRowID
    }

    func actor() throws -> String { RunActor.operatingSystemUser }

    let upsertBatchSize = 256

    /// Only without the pre-update hook: with it, a table that had rows before is hook-counted,
    /// and one that had none can have no earlier run's key to hold.
    var countsNewHoldersAsUpdated: Bool { SQLiteChangeCounter.loaded == nil }

    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int, keysNew: Bool) throws {
        if tallies[upsert.table] == nil { tallies[upsert.table] = try newTally(upsert) }
        let insertOnly = keysNew && tallies[upsert.table]?.tableWasEmpty == true
        let statement: Statement
        if rows == upsertBatchSize {
            let key = BatchKey(table: upsert.table, insertOnly: insertOnly)
            if let prepared = batchStatements[key] {
                statement = prepared
            } else {
                statement = try db.makeStatement(sql: Self.sql(upsert, rows: rows, insertOnly: insertOnly))
                batchStatements[key] = statement
            }
        } else {
            statement = try db.cachedStatement(sql: Self.sql(upsert, rows: rows, insertOnly: insertOnly))
        }
        var counts = SQLiteChangeCounter.Counts()
        if let hooked = countedByHook[upsert.table] {
            guard let connection = db.sqliteConnection else {
                throw WarehouseError(message: "\(upsert.table): the SQLite connection is closed")
            }
            counts = try hooked.counter.count(in: upsert.table, tracked: hooked.tracked, on: connection) {
                try run(statement, values)
            }
        } else {
            try run(statement, values)
        }
        tallies[upsert.table]?.record(
            rows: rows, changed: Int(sqlite3_changes(db.sqliteConnection)) - counts.holders, inserted: counts.inserted)
    }

    /// How a table's inserts are told from its updates: by its growth when it is empty before
    /// the first upsert (then the count at the end reads only the rows this session wrote) or
    /// when SQLite has no pre-update hook; otherwise by the hook, so that no count reads a table
    /// of years of rows (and the hook costs nothing to the first load of a table).
    private func newTally(_ upsert: UpsertStatement) throws -> UpsertTally {
        let table = upsert.table
        if try integer("SELECT EXISTS (SELECT 1 FROM \(table))") == 0 { return UpsertTally(rowsBefore: 0) }
        guard let counter = SQLiteChangeCounter.loaded else { return UpsertTally(rowsBefore: try rowCount(table)) }
        var tracked: [Int32] = []
        try scan("SELECT cid, name FROM pragma_table_info(?) ORDER BY cid", [.text(table)]) { row in
            if upsert.values.contains(row.text(1)) { tracked.append(Int32(row.int64(0))) }
        }
        countedByHook[table] = (counter, tracked)
        return UpsertTally(rowsBefore: nil)
    }

    /// Runs a write statement with `values` bound through the C API.
    private func run(_ statement: Statement, _ values: PendingValues) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        let status = values.bind(to: handle) { sqlite3_step(handle) }
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: statement.sql)
        }
    }

    /// The table's counts: its inserts told by the hook, or by its growth: the rows it has now,
    /// which for a table empty before are the `distinctKeys` the caller wrote, if it knows
    /// them, and otherwise counted (a scan of the table at the file's end).
    func upsertCounts(table: String, distinctKeys: Int?) throws -> UpsertCounts {
        guard let tally = tallies[table] else { return UpsertCounts() }
        guard countedByHook[table] == nil else { return tally.counts() }
        return tally.counts(rowsNow: try tally.rowsNowWithoutCounting(distinctKeys: distinctKeys) ?? rowCount(table))
    }

    private func rowCount(_ table: String) throws -> Int64 { try integer("SELECT count(*) FROM \(table)") ?? 0 }

    /// The upsert's SQL for `rows` rows: an existing row is updated only when a value changes;
    /// `insertOnly`, rows inserted (`OR FAIL`: see the type's documentation).
    private static func sql(_ upsert: UpsertStatement, rows: Int, insertOnly: Bool) -> String {
        let row = "(" + placeholders(upsert.columnCount) + ")"
        let insert =
            "INSERT\(insertOnly ? " OR FAIL" : "") INTO \(upsert.table) (\(upsert.columns.joined(separator: ", "))) VALUES "
            + repeatElement(row, count: rows).joined(separator: ", ")
        guard !insertOnly else { return insert }
        // A later run re-sending a key unchanged becomes its holder: its run and source row are written.
        let written = upsert.values + (upsert.recordsRun ? [HistoryTable.runColumn] : [])
        let changed = written.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")
        return insert + " ON CONFLICT(\(upsert.key.joined(separator: ", "))) DO UPDATE SET \(upsert.assignments)"
            + " WHERE \(changed)"
    }

    /// A prepared full-batch statement's table, and whether it inserts only.
    private struct BatchKey: Hashable {
        let table: String
        let insertOnly: Bool
    }

    private static func arguments(_ values: [SQLValue]) -> StatementArguments {
        StatementArguments(
            values.map { value -> DatabaseValueConvertible? in
                switch value {
                case .null: return nil
                case .integer(let number): return number
                case .real(let number): return number
                case .text(let text): return text
                }
            })
    }
}

extension PendingValues {
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
