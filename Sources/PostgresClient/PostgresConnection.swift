import CLibPQ
import Foundation
import Warehouse

/// A PostgreSQL error: what the server or libpq said, with any password in it hidden.
public struct PostgresError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// The SQLSTATE code, when the server gave one (`57P01`: the server ended the connection).
    public var sqlState: String?

    public var description: String { message }
}

/// One connection to a PostgreSQL server through libpq: parameterised statements in text
/// format, `COPY … FROM STDIN`, transactions and advisory locks. One owner: `deinit` closes it.
public final class PostgresConnection {
    private let handle: OpaquePointer
    /// The server's URL as messages show it (password hidden).
    public let location: String

    /// Connects to `url` (`postgresql://…`, with libpq's usual parameters such as `sslmode`).
    public init(url: String) throws {
        location = DatabaseLocation.redacted(url)
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(message: "cannot connect to \(location): out of memory", sqlState: nil)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(message: "cannot connect to \(location): \(DatabaseLocation.redacted(reason))", sqlState: nil)
        }
        handle = connection
        // Quiet notices (they would go to standard error).
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` with `$1…$n` bound to `parameters` (text; `nil` is NULL) and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let result = withCStrings(parameters) { values in
            PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try checked(result, sql: sql)
    }

    /// Sends `rows` to `COPY table (columns) FROM STDIN` in text format; returns the rows copied.
    @discardableResult
    public func copy<Rows: Sequence>(into table: String, columns: [String], rows: Rows) throws -> Int where Rows.Element == [String?] {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        try checked(PQexec(handle, sql), sql: sql, expecting: PGRES_COPY_IN)
        var buffer = [UInt8]()
        buffer.reserveCapacity(1 << 16)
        func send() throws {
            guard !buffer.isEmpty else { return }
            let status = buffer.withUnsafeBufferPointer { bytes in
                bytes.baseAddress.map { PQputCopyData(handle, UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self), Int32(bytes.count)) } ?? 1
            }
            buffer.removeAll(keepingCapacity: true)
            guard status == 1 else { throw PostgresError(message: "COPY into \(table) failed: \(Self.message(PQerrorMessage(handle)))", sqlState: nil) }
        }
        var count = 0
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: "\t")) }
                Self.appendCopyText(value, to: &buffer)
            }
            buffer.append(UInt8(ascii: "\n"))
            count += 1
            if buffer.count >= 1 << 16 { try send() }
        }
        try send()
        guard PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError(message: "COPY into \(table) failed: \(Self.message(PQerrorMessage(handle)))", sqlState: nil)
        }
        try checked(PQgetResult(handle), sql: sql)
        // Drain: libpq hands back a final NULL result after COPY.
        while let extra = PQgetResult(handle) { PQclear(extra) }
        return count
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Takes the session-level advisory lock `key` if no other session holds it.
    public func tryAdvisoryLock(_ key: Int64) throws -> Bool {
        try execute("SELECT pg_try_advisory_lock($1)", [String(key)]).text(row: 0, column: 0) == "t"
    }

    /// Releases the advisory lock `key` held by this session.
    public func advisoryUnlock(_ key: Int64) throws {
        try execute("SELECT pg_advisory_unlock($1)", [String(key)])
    }

    // MARK: - Helpers

    @discardableResult
    private func checked(_ result: OpaquePointer?, sql: String, expecting expected: ExecStatusType? = nil) throws -> PostgresResult {
        guard let result else {
            throw PostgresError(message: "PostgreSQL: \(Self.message(PQerrorMessage(handle)))", sqlState: nil)
        }
        let status = PQresultStatus(result)
        let fine = expected.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard fine else {
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = Self.message(PQresultErrorMessage(result))
            PQclear(result)
            let lost = PQstatus(handle) != CONNECTION_OK ? " (the connection to \(location) was lost)" : ""
            throw PostgresError(message: "PostgreSQL: \(DatabaseLocation.redacted(message))\(lost)", sqlState: state)
        }
        return PostgresResult(result)
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown error"
    }

    /// COPY's text format: `\N` for NULL; backslash, tab, newline and carriage return escaped.
    private static func appendCopyText(_ value: String?, to buffer: inout [UInt8]) {
        guard let value else {
            buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            return
        }
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            default: buffer.append(byte)
            }
        }
    }
}

/// Calls `body` with C strings for `values` (NULL for `nil`), valid during the call.
private func withCStrings<T>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    var storage: [UnsafeMutablePointer<CChar>?] = values.map { $0.map { strdup($0) } ?? nil }
    defer { storage.forEach { free($0) } }
    return body(storage.map { $0.map { UnsafePointer($0) } })
}

/// The rows of a statement (text format). One owner: `deinit` frees the libpq result.
public final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    public var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows inserted, updated or deleted (the command tag's count).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// A value as text; `nil` for NULL.
    public func text(row: Int, column: Int) -> String? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// A value as an integer; `nil` for NULL or text that is not one.
    public func int64(row: Int, column: Int) -> Int64? { text(row: row, column: column).flatMap { Int64($0) } }
}
