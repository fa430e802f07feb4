import Foundation
import PostgresClient

/// The warehouse's SQL on a PostgreSQL connection, inside the backend's transaction.
///
/// `?` parameters become `$1…$n`. Upserts go through `COPY` into a temporary staging table
/// per target table, then `INSERT … SELECT … ON CONFLICT … DO UPDATE … WHERE (…) IS DISTINCT
/// FROM (…)`, whose `RETURNING (xmax = 0)` tells inserted rows from updated ones; rows the
/// `WHERE` leaves alone are unchanged (SPEC section 14). A batch is first tried as a plain
/// `INSERT` under a savepoint, which a new day's rows (no key exists yet) pass at twice the
/// speed; when one of its keys exists, that is rolled back and the batch merged, with the
/// same result as if it had been merged at once (and the file's later batches of that table
/// are merged at once). The server writes a batch while the caller reads the next; every other
/// statement first waits for it (`settle`).
///
/// The feed tables' store references are checked with each batch (one hashed anti-join),
/// instead of by per-row foreign-key triggers: those cost 3.2 s per million rows here, more
/// than the rest of the write.
final class PostgresSession: SQLSession {
    let connection: PostgresConnection
    /// Staging tables created on this connection (they live as long as it does).
    private var stagingTables: Set<String>
    private var copyText: [UInt8] = []
    /// What the upserts did, by table.
    private var tallies: [String: UpsertTally] = [:]
    /// The batch the server is writing while the caller reads on.
    private var runningBatch: StagedBatch?
    /// Tables where a batch met existing keys: their later batches are merged at once.
    private var merging = Set<String>()

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

    let upsertsNeedDistinctKeys = true
    /// Rows per COPY and write: large enough that a statement's fixed cost is spread thin.
    let upsertBatchSize = 32768

    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int) throws {
        let staging = try stage(upsert, values)
        let batch = StagedBatch(upsert: upsert, staging: staging, rows: rows, merges: merging.contains(upsert.table))
        try connection.send(batch.merges ? batch.mergeSQL : batch.insertSQL)
        runningBatch = batch
    }

    func overwrite(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int) throws {
        let staging = try stage(upsert, values)
        try connection.execute(StagedBatch(upsert: upsert, staging: staging, rows: rows, merges: true).overwriteSQL)
    }

    /// Settles the running batch, then copies `values` into the upsert's staging table (made on
    /// first use); returns its name.
    private func stage(_ upsert: UpsertStatement, _ values: PendingValues) throws -> String {
        try settle()
        let staging = "ddkpi_staging_\(upsert.table)"
        if stagingTables.contains(staging) {
            try connection.execute("TRUNCATE \(staging)")
        } else {
            // The upsert's columns with their types, and no constraints: rows are checked on writing.
            try connection.execute(
                """
                CREATE TEMPORARY TABLE IF NOT EXISTS \(staging) ON COMMIT DELETE ROWS
                AS SELECT \(upsert.columns.joined(separator: ", ")) FROM \(upsert.table) WITH NO DATA
                """)
            stagingTables.insert(staging)
        }
        copyText.removeAll(keepingCapacity: true)
        values.appendCopyText(to: &copyText, columnCount: upsert.columnCount)
        try connection.copy(into: staging, columns: upsert.columns, text: copyText)
        return staging
    }

    func upsertCounts(table: String) throws -> UpsertCounts {
        try settle()
        return tallies[table]?.counts() ?? UpsertCounts()
    }

    /// Waits for the running batch and counts what it did (merging it when its plain insert
    /// met an existing key).
    func settle() throws {
        guard let batch = runningBatch else { return }
        runningBatch = nil
        let counts: (changed: Int, inserted: Int, unknownStore: String?)
        do {
            let results = try connection.finishSent()
            counts = batch.merges ? StagedBatch.mergeCounts(results.last) : StagedBatch.insertCounts(results)
        } catch let error as PostgresError where !batch.merges && error.sqlState == Self.uniqueViolation {
            try connection.executeScript("ROLLBACK TO SAVEPOINT ddkpi_batch; RELEASE SAVEPOINT ddkpi_batch")
            merging.insert(batch.upsert.table)
            counts = StagedBatch.mergeCounts(try connection.execute(batch.mergeSQL))
        }
        let (changed, inserted, unknownStore) = counts
        if let unknownStore {
            throw WarehouseError(message: "\(batch.upsert.table): store \(unknownStore) is not in the store directory")
        }
        tallies[batch.upsert.table, default: UpsertTally(rowsBefore: nil)].record(
            rows: batch.rows, changed: changed, inserted: inserted)
    }

    /// Takes the running batch's result, if any, without looking at it (before a rollback).
    func abandon() {
        runningBatch = nil
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

/// A batch of an upsert in its staging table, and the SQL that writes it to its table.
private struct StagedBatch {
    let upsert: UpsertStatement
    let staging: String
    let rows: Int
    /// Whether the batch is merged at once rather than first tried as new rows.
    let merges: Bool

    private var columns: String { upsert.columns.joined(separator: ", ") }

    /// `WHERE` for the staged rows whose store is in the directory (all rows when the table
    /// has no store reference).
    private var knownStores: String { upsert.referencesStore ? " WHERE store_code IN (SELECT code FROM store)" : "" }

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
        INSERT INTO \(upsert.table) (\(columns)) SELECT \(columns) FROM \(staging)\(knownStores);
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

    /// The batch written over its keys' rows whatever they hold (their store known: the same
    /// rows' first values were upserted before).
    var overwriteSQL: String {
        """
        INSERT INTO \(upsert.table) (\(columns)) SELECT \(columns) FROM \(staging)
        ON CONFLICT (\(upsert.key.joined(separator: ", "))) DO UPDATE SET \(upsert.assignments)
        """
    }

    /// The batch merged into its table: counts of changed and inserted rows, and a store the
    /// directory lacks, in one row.
    var mergeSQL: String {
        let current = upsert.values.map { "\(upsert.table).\($0)" }.joined(separator: ", ")
        let incoming = upsert.values.map { "excluded.\($0)" }.joined(separator: ", ")
        return """
            WITH merged AS (
                INSERT INTO \(upsert.table) (\(columns)) SELECT \(columns) FROM \(staging)\(knownStores)
                ON CONFLICT (\(upsert.key.joined(separator: ", "))) DO UPDATE SET \(upsert.assignments)
                WHERE (\(current)) IS DISTINCT FROM (\(incoming))
                RETURNING (xmax = 0) AS inserted)
            SELECT count(*), count(*) FILTER (WHERE inserted), \(unknownStore) FROM merged
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
    /// Appends the values as rows of COPY's text format, `columnCount` per row.
    func appendCopyText(to buffer: inout [UInt8], columnCount: Int) {
        for (index, value) in values.enumerated() {
            if index % columnCount != 0 { buffer.append(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            case .integer(let number): Self.appendDecimal(number, to: &buffer)
            case .real(let number): buffer.append(contentsOf: "\(number)".utf8)
            case .text(let start, let count):
                PostgresConnection.appendCopyText(bytes: text[start..<start + count], to: &buffer)
            }
            if index % columnCount == columnCount - 1 { buffer.append(UInt8(ascii: "\n")) }
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

    /// A hash of the key of the row whose values start at `first`: its first `count` values.
    func keyHash(from first: Int, count: Int) -> Int {
        var hasher = Hasher()
        for value in values[first..<first + count] {
            switch value {
            case .null: hasher.combine(0 as UInt8)
            case .integer(let number): hasher.combine(number)
            case .real(let number): hasher.combine(number)
            case .text(let start, let length):
                text.withUnsafeBytes {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[start..<start + length]))
                }
            }
        }
        return hasher.finalize()
    }
}
