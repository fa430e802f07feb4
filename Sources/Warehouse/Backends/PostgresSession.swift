import Foundation
import PostgresClient

/// The warehouse's SQL on a PostgreSQL connection, inside the backend's transaction.
///
/// `?` parameters become `$1…$n`. Upserts go through `COPY` into a temporary staging table
/// per target table, then one `INSERT … SELECT … ON CONFLICT … DO UPDATE … WHERE (…) IS
/// DISTINCT FROM (…)` whose `RETURNING (xmax = 0)` tells inserted rows from updated ones; rows
/// the `WHERE` leaves alone are unchanged (SPEC section 14).
final class PostgresSession: SQLSession {
    let connection: PostgresConnection
    /// Staging tables created on this connection (they live as long as it does).
    private var stagingTables: Set<String>
    private var copyText: [UInt8] = []

    init(_ connection: PostgresConnection, stagingTables: Set<String>) {
        self.connection = connection
        self.stagingTables = stagingTables
    }

    /// The staging tables now on the connection, for the next session on it.
    var createdStagingTables: Set<String> { stagingTables }

    func scan(_ sql: String, _ arguments: [SQLValue], _ body: (PostgresRow) throws -> Void) throws {
        let result = try connection.execute(Self.numbered(sql), arguments.map(\.text))
        for index in 0..<result.rowCount { try body(PostgresRow(result: result, row: index)) }
    }

    func execute(_ sql: String, _ arguments: [SQLValue]) throws {
        try connection.execute(Self.numbered(sql), arguments.map(\.text))
    }

    func insertReturningID(_ sql: String, _ arguments: [SQLValue]) throws -> Int64 {
        let result = try connection.execute(Self.numbered(sql + " RETURNING id"), arguments.map(\.text))
        guard let id = result.int64(row: 0, column: 0) else { throw WarehouseError(message: "PostgreSQL returned no id for a new row") }
        return id
    }

    let upsertsCountInserts = true
    let upsertsNeedDistinctKeys = true
    /// Rows per COPY and merge: large enough that the merge's fixed cost is spread thin.
    let upsertBatchSize = 32768

    func upsert(_ upsert: UpsertStatement, _ values: PendingValues, rows: Int) throws -> UpsertBatchResult {
        let staging = "ddkpi_staging_\(upsert.table)"
        if !stagingTables.contains(staging) {
            // The upsert's columns with their types, and no constraints: rows are checked on merging.
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
        let columns = upsert.columns.joined(separator: ", ")
        let current = upsert.values.map { "\(upsert.table).\($0)" }.joined(separator: ", ")
        let incoming = upsert.values.map { "excluded.\($0)" }.joined(separator: ", ")
        let result = try connection.execute(
            """
            WITH merged AS (
                INSERT INTO \(upsert.table) (\(columns)) SELECT \(columns) FROM \(staging)
                ON CONFLICT (\(upsert.key.joined(separator: ", "))) DO UPDATE SET \(upsert.assignments)
                WHERE (\(current)) IS DISTINCT FROM (\(incoming))
                RETURNING (xmax = 0) AS inserted)
            SELECT count(*), count(*) FILTER (WHERE inserted) FROM merged
            """)
        try connection.execute("TRUNCATE \(staging)")
        return UpsertBatchResult(
            changed: Int(result.int64(row: 0, column: 0) ?? 0), inserted: Int(result.int64(row: 0, column: 1) ?? 0))
    }

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
            case .integer(let number): buffer.append(contentsOf: String(number).utf8)
            case .real(let number): buffer.append(contentsOf: "\(number)".utf8)
            case .text(let start, let count):
                PostgresConnection.appendCopyText(bytes: text[start..<start + count], to: &buffer)
            }
            if index % columnCount == columnCount - 1 { buffer.append(UInt8(ascii: "\n")) }
        }
    }

    /// The key of the row whose values start at `first`: its first `count` values as one string.
    func rowKey(from first: Int, count: Int) -> String {
        var key = ""
        for value in values[first..<first + count] {
            switch value {
            case .null: key += "\u{0}N"
            case .integer(let number): key += "\u{0}i\(number)"
            case .real(let number): key += "\u{0}r\(number)"
            case .text(let start, let length): key += "\u{0}t" + String(decoding: text[start..<start + length], as: UTF8.self)
            }
        }
        return key
    }
}
