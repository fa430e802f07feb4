import Foundation
import PostgresClient

/// The warehouse's SQL on a PostgreSQL connection, inside the backend's transaction.
///
/// `?` parameters become `$1…$n`. Upserts go through `COPY` into a temporary staging table
/// per target table. A batch is first tried as a plain `INSERT` under a savepoint, which a new
/// day's rows (no key exists yet) pass at twice the speed; the server writes it while the caller
/// reads the next. When one of its keys exists (or repeats in it), that is rolled back and the
/// table's batches from then on are merged: they stay staged, numbered in file order, until
/// another statement comes (or 2M rows are staged), and one `INSERT … SELECT DISTINCT ON … ON
/// CONFLICT DO UPDATE` writes each key's last change, judged row by row with window functions,
/// so that a key repeated down the file is written once and counted as row-by-row upserts
/// count it (inserted, updated, unchanged: SPEC section 14). Every other statement first waits
/// for the writes (`settle`).
///
/// The feed tables' store references are checked with each batch (one hashed anti-join),
/// instead of by per-row foreign-key triggers, which cost more than the rest of the write
/// (docs/decisions.md#no-foreign-key-to-store-on-postgresql).
final class PostgresSession: SQLSession {
    let connection: PostgresConnection
    /// Staging tables created on this connection (they live as long as it does).
    private var stagingTables: Set<String>
    private var copyText: [UInt8] = []
    /// What the upserts did, by table.
    private var tallies: [String: UpsertTally] = [:]
    /// The batch the server is writing while the caller reads on.
    private var runningBatch: StagedBatch?
    /// Whether the server is still copying rows staged for merging while the caller reads on.
    private var copying = false
    /// Tables where a batch met existing keys: their later batches are merged.
    private var merging = Set<String>()
    /// Rows staged for merging, not yet merged: a table's batches are merged together, so that
    /// a key repeated across them is written once.
    private var stagedMerge: StagedBatch?

    init(_ connection: PostgresConnection, stagingTables: Set<String>) {
        self.connection = connection
        self.stagingTables = stagingTables
    }

    /// The staging tables now on the connection, for the next session on it.
    var createdStagingTables: Set<String> { stagingTables }

    func scan(_ sql: String, _ arguments: [SQLValue], _ body: (PostgresRow) throws -> Void) throws {
        try settle()
        let result = try connection.execute(Self.numbered(sql), arguments.map(\.text))
        for index in 0..<result.rowCount { try body(PostgresRow(result: result, row: index)) }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try settle()
        try connection.execute(Self.numbered(sql), arguments.map(\.text))
    }

    func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        try settle()
        let result = try connection.execute(Self.numbered(sql + " RETURNING id"), arguments.map(\.text))
        guard let id = result.int64(row: 0, column: 0) else {
            throw WarehouseError(message: "PostgreSQL returned no id for a new row")
        }
        return id
    }

    func actor() throws -> String {
        try settle()
        let result = try connection.execute("SELECT session_user", [])
        guard let user = result.text(row: 0, column: 0) else {
            throw WarehouseError(message: "PostgreSQL returned no session user")
        }
        return user
    }

    /// Rows per COPY and write: large enough that a statement's fixed cost is spread thin.
    let upsertBatchSize = 32768

    let countsNewHoldersAsUpdated = false

    /// Staged rows from which the next batch first merges them (one batch fewer at most: the
    /// staging table on the server stays bounded); a file's repeated keys are collapsed within
    /// each merge.
    static let mergeRows = 1 << 21

    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int, keysNew _: Bool) throws {
        try settleRunning()
        if let staged = stagedMerge, staged.upsert.table != upsert.table || staged.rows >= Self.mergeRows {
            try mergeStaged()
        }
        let first = stagedMerge?.rows ?? 0
        let merges = merging.contains(upsert.table)
        let staging = try stage(upsert, values, firstSequence: first, appending: stagedMerge != nil, waits: !merges)
        if merges {
            copying = true
            stagedMerge = StagedBatch(upsert: upsert, staging: staging, rows: first + rows)
        } else {
            let batch = StagedBatch(upsert: upsert, staging: staging, rows: rows)
            try connection.send(batch.insertSQL)
            runningBatch = batch
        }
    }

    /// Copies `values` into the upsert's staging table (made on first use), after the rows
    /// there when `appending`, each row numbered from `firstSequence` on; returns its name.
    /// Unless it `waits`, the server copies while the caller goes on (`settleRunning` waits).
    private func stage(
        _ upsert: UpsertStatement, _ values: PendingValues, firstSequence: Int, appending: Bool, waits: Bool
    ) throws -> String {
        let staging = "ddkpi_staging_\(upsert.table)"
        if stagingTables.contains(staging) {
            if !appending { try connection.execute("TRUNCATE \(staging)") }
        } else {
            // The upsert's columns with their types and the rows' order in the file, and no
            // constraints: rows are checked on writing.
            try connection.execute(
                """
                CREATE TEMPORARY TABLE IF NOT EXISTS \(staging) ON COMMIT DELETE ROWS
                AS SELECT \(upsert.columns.joined(separator: ", ")), 0::bigint AS \(StagedBatch.sequence)
                FROM \(upsert.table) WITH NO DATA
                """)
            stagingTables.insert(staging)
        }
        copyText.removeAll(keepingCapacity: true)
        values.appendCopyText(to: &copyText, columnCount: upsert.columnCount, firstSequence: firstSequence)
        let columns = upsert.columns + [StagedBatch.sequence]
        if waits {
            try connection.copy(into: staging, columns: columns, text: copyText)
        } else {
            try connection.sendCopy(into: staging, columns: columns, text: copyText)
        }
        return staging
    }

    func upsertCounts(table: String, distinctKeys _: Int?) throws -> UpsertCounts {
        try settle()
        return tallies[table]?.counts() ?? UpsertCounts()
    }

    /// Writes every staged row: waits for the running batch, then merges the rows staged for
    /// merging. Every statement but an upsert of the same table runs after it.
    func settle() throws {
        try settleRunning()
        try mergeStaged()
    }

    /// Waits for the rows being copied, or for the running batch and counts what it did. When
    /// its plain insert met an existing key (or held one twice), it is rolled back and its rows,
    /// still staged, are merged with the table's later batches.
    private func settleRunning() throws {
        if copying {
            copying = false
            try connection.finishSent()
        }
        guard let batch = runningBatch else { return }
        runningBatch = nil
        let results: [PostgresResult]
        do {
            results = try connection.finishSent()
        } catch let error as PostgresError where error.sqlState == Self.uniqueViolation {
            try connection.executeScript("ROLLBACK TO SAVEPOINT ddkpi_batch; RELEASE SAVEPOINT ddkpi_batch")
            merging.insert(batch.upsert.table)
            stagedMerge = batch
            return
        }
        try record(batch, StagedBatch.insertCounts(results))
    }

    /// Merges the rows staged for merging into their table, if any.
    private func mergeStaged() throws {
        guard let batch = stagedMerge else { return }
        stagedMerge = nil
        try record(batch, StagedBatch.mergeCounts(try connection.execute(batch.mergeSQL)))
    }

    /// Adds what a batch did to its table's tally; throws when it held a store the directory lacks.
    private func record(_ batch: StagedBatch, _ counts: (changed: Int, inserted: Int, unknownStore: String?)) throws {
        if let unknownStore = counts.unknownStore {
            throw WarehouseError(message: "\(batch.upsert.table): store \(unknownStore) is not in the store directory")
        }
        tallies[batch.upsert.table, default: UpsertTally(rowsBefore: nil)].record(
            rows: batch.rows, changed: counts.changed, inserted: counts.inserted)
    }

    /// Takes the running batch's result, if any, without looking at it (before a rollback).
    func abandon() {
        runningBatch = nil
        copying = false
        stagedMerge = nil
        _ = try? connection.finishSent()
    }

    private static let uniqueViolation = "23505"

    /// `sql` with its `?` parameters numbered `$1…$n` (the warehouse's SQL has no `?` in literals).
    static func numbered(_ sql: String) -> String {
        guard sql.contains("?") else { return sql }
        var result = ""
        result.reserveCapacity(sql.utf8.count + 16)
        var number = 0
        for character in sql {
            if character == "?" {
                number += 1
                result += "$\(number)"
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Rows of an upsert in its staging table, and the SQL that writes them to their table.
private struct StagedBatch {
    let upsert: UpsertStatement
    let staging: String
    let rows: Int

    /// The staging tables' column numbering the rows in the order the file gave them.
    static let sequence = "ddkpi_seq"

    private var columns: String { upsert.columns.joined(separator: ", ") }
    private var keyColumns: String { upsert.key.joined(separator: ", ") }

    /// The condition on a staged row that its store is in the directory (`nil` when the table
    /// has no store reference).
    private var storeIsKnown: String? { upsert.referencesStore ? "store_code IN (SELECT code FROM store)" : nil }

    /// A store of the batch the directory lacks (`NULL` when none).
    private var unknownStore: String {
        upsert.referencesStore
            ? "(SELECT min(store_code) FROM \(staging) WHERE store_code NOT IN (SELECT code FROM store))" : "NULL"
    }

    /// The batch as new rows, under a savepoint: the `INSERT`'s count, then a store the
    /// directory lacks, as the last result.
    var insertSQL: String {
        """
        SAVEPOINT ddkpi_batch;
        INSERT INTO \(upsert.table) (\(columns)) SELECT \(columns) FROM \(staging)\(storeIsKnown.map { " WHERE \($0)" } ?? "");
        RELEASE SAVEPOINT ddkpi_batch;
        SELECT \(unknownStore)
        """
    }

    /// What `insertSQL` did: its rows inserted, and a store the directory lacks.
    static func insertCounts(_ results: [PostgresResult]) -> (changed: Int, inserted: Int, unknownStore: String?) {
        let inserted = results.count > 1 ? results[1].affectedRows : 0
        return (inserted, inserted, results.last?.text(row: 0, column: 0))
    }

    /// What `mergeSQL` did, from its one row.
    static func mergeCounts(_ result: PostgresResult?) -> (changed: Int, inserted: Int, unknownStore: String?) {
        guard let result else { return (0, 0, nil) }
        return (
            Int(result.int64(row: 0, column: 0) ?? 0), Int(result.int64(row: 0, column: 1) ?? 0),
            result.text(row: 0, column: 2)
        )
    }

    /// The staged rows merged into their table as row-by-row upserts in file order would
    /// leave it, in one statement; its one row counts the rows that inserted or changed their
    /// key and those that inserted, and names a store the directory lacks.
    ///
    /// Each staged row is judged against the row before it: a key's first staged row against
    /// the table's row (none: an insert), a later one against the key's staged row before it
    /// (`lag` in file order). A key's last row that changed it is written (a later equal row
    /// leaves it, with its run and source row, as it was); a key of an earlier run that no row
    /// changed gets its first row's run and source row (the run holds it: SPEC section 16).
    /// Keys are never NULL (primary keys, and `goal.date` is `''` for none): window partitions
    /// and `DISTINCT ON` group NULLs together, where the join and the unique index would not.
    var mergeSQL: String {
        let values = upsert.values
        let before = values.indices.map { "lag(\(values[$0])) OVER keyed AS ddkpi_before_\($0)" }
        let staged = "(" + values.map { "staged.\($0)" }.joined(separator: ", ") + ")"
        let stored = "(" + values.map { "stored.\($0)" }.joined(separator: ", ") + ")"
        let earlier = "(" + values.indices.map { "staged.ddkpi_before_\($0)" }.joined(separator: ", ") + ")"
        let sameKey = upsert.key.map { "stored.\($0) = staged.\($0)" }.joined(separator: " AND ")
        let run = HistoryTable.runColumn
        let holds =
            upsert.recordsRun
            ? "staged.ddkpi_nth = 1 AND stored.ctid IS NOT NULL AND stored.\(run) IS DISTINCT FROM staged.\(run)"
            : "FALSE"
        return """
            WITH staged AS (
                SELECT *, row_number() OVER keyed AS ddkpi_nth, \(before.joined(separator: ", "))
                FROM \(staging) WINDOW keyed AS (PARTITION BY \(keyColumns) ORDER BY \(Self.sequence))
            ), judged AS (
                SELECT staged.*, staged.ddkpi_nth = 1 AND stored.ctid IS NULL AS ddkpi_inserts, \(holds) AS ddkpi_holds,
                    CASE WHEN staged.ddkpi_nth = 1 THEN stored.ctid IS NULL OR \(stored) IS DISTINCT FROM \(staged)
                        ELSE \(earlier) IS DISTINCT FROM \(staged) END AS ddkpi_changes
                FROM staged LEFT JOIN \(upsert.table) AS stored ON staged.ddkpi_nth = 1 AND \(sameKey)
            ), written AS (
                INSERT INTO \(upsert.table) (\(columns))
                SELECT DISTINCT ON (\(keyColumns)) \(columns) FROM judged
                WHERE (ddkpi_changes OR ddkpi_holds)\(storeIsKnown.map { " AND \($0)" } ?? "")
                ORDER BY \(keyColumns), \(Self.sequence) DESC
                ON CONFLICT (\(keyColumns)) DO UPDATE SET \(upsert.assignments)
            )
            SELECT count(*) FILTER (WHERE ddkpi_changes), count(*) FILTER (WHERE ddkpi_inserts), \(unknownStore)
            FROM judged
            """
    }
}

/// A row of a PostgreSQL result (text format).
struct PostgresRow: ScannedRow {
    let result: PostgresResult
    let row: Int

    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? { result.bytes(row: row, column: Int(column)) }

    func int64(_ column: Int32) -> Int64 { optionalInt64(column) ?? 0 }

    func optionalInt64(_ column: Int32) -> Int64? {
        guard let bytes = bytes(column), !bytes.isEmpty else { return nil }
        var value: Int64 = 0
        var negative = false
        for (index, byte) in bytes.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") {
                negative = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value &* 10 &+ Int64(byte - UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    func double(_ column: Int32) -> Double { Double(text(column)) ?? 0 }
}

extension PendingValues {
    /// Appends the values as rows of COPY's text format, `columnCount` per row, each row ending
    /// with its number, from `firstSequence` on.
    func appendCopyText(to buffer: inout [UInt8], columnCount: Int, firstSequence: Int) {
        var sequence = Int64(firstSequence)
        for (index, value) in values.enumerated() {
            if index % columnCount != 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .integer(let number): Self.appendDecimal(number, to: &buffer)
            case .real(let number): buffer.append(contentsOf: "\(number)".utf8)
            case .text(let start, let count):
                PostgresConnection.appendCopyText(bytes: text[start..<start + count], to: &buffer)
            }
            if index % columnCount == columnCount - 1 {
                buffer.append(UInt8(ascii: "\t"))
                Self.appendDecimal(sequence, to: &buffer)
                sequence += 1
                buffer.append(UInt8(ascii: "\n"))
            }
        }
    }

    /// Appends `number` in decimal, without making a String.
    private static func appendDecimal(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &digits) { bytes in
            var index = bytes.count
            repeat {
                index -= 1
                bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: bytes[index...])
        }
    }
}
