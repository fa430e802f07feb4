import CLibPQ
import Foundation
import Logging

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
    /// What `send` sent and `finishSent` has not yet waited for.
    private var sentSQL: String?
    /// The server's URL as messages show it (password hidden).
    public let location: String
    /// The URL as given, kept to hide its password wherever libpq echoes it.
    private let url: String
    /// Where the server's notices and warnings go instead of libpq's standard error.
    private let notices: NoticeLog

    /// Connects to `url` (`postgresql://…`, with libpq's usual parameters such as `sslmode`);
    /// the server's notices and warnings go to `logger` as `postgresql notice` events.
    public init(url: String, logger: Logger = Logger(label: "ddkpi.postgresql")) throws {
        location = PostgresURL.masked(url)
        self.url = url
        notices = NoticeLog(logger: logger)
        guard CLibPQ_load() != nil else {
            throw PostgresError(
                message: "cannot connect to \(location): libpq.so.5 could not be loaded (apt-get install libpq5)",
                sqlState: nil)
        }
        guard let connection = CLibPQ_PQconnectdb(PostgresURL.forLibpq(url)) else {
            throw PostgresError(message: "cannot connect to \(location): out of memory", sqlState: nil)
        }
        guard CLibPQ_PQstatus(connection) == CONNECTION_OK else {
            let reason = Self.message(CLibPQ_PQerrorMessage(connection))
            CLibPQ_PQfinish(connection)
            throw PostgresError(
                message: "cannot connect to \(location): \(PostgresURL.redacted(reason, about: url))", sqlState: nil)
        }
        handle = connection
        notices.receive(from: connection)
        // Quiet notices (they would go to standard error).
        try execute("SET client_min_messages = warning")
    }

    deinit { CLibPQ_PQfinish(handle) }

    /// Runs `sql` with `$1…$n` bound to `parameters` (text; `nil` is NULL) and returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [String?] = []) throws -> PostgresResult {
        let result = withCStrings(parameters) { values in
            CLibPQ_PQexecParams(handle, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try checked(result, sql: sql)
    }

    /// Sends `sql` (no parameters) and returns at once, while the server runs it; nothing else
    /// may be sent until `finishSent` has taken its result.
    public func send(_ sql: String) throws {
        guard CLibPQ_PQsendQuery(handle, sql) == 1 else {
            throw PostgresError(
                message: "PostgreSQL: \(lostOr(Self.message(CLibPQ_PQerrorMessage(handle))))", sqlState: nil)
        }
        sentSQL = sql
    }

    /// Waits for what `send` sent and returns its results, one per statement (none when
    /// nothing was sent); throws the first statement error.
    @discardableResult
    public func finishSent() throws -> [PostgresResult] {
        guard let sql = sentSQL else { return [] }
        sentSQL = nil
        var results: [PostgresResult] = []
        var failure: Error?
        while let result = CLibPQ_PQgetResult(handle) {
            do {
                results.append(try checked(result, sql: sql))
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return results
    }

    /// Runs `sql`, which may hold several statements separated by `;` and takes no parameters
    /// (the simple query protocol: schema scripts).
    public func executeScript(_ sql: String) throws {
        try checked(CLibPQ_PQexec(handle, sql), sql: sql)
    }

    /// Sends `rows` to `COPY table (columns) FROM STDIN` in text format; returns the rows copied.
    @discardableResult
    public func copy<Rows: Sequence>(into table: String, columns: [String], rows: Rows) throws -> Int
    where Rows.Element == [String?] {
        var data = [UInt8]()
        var count = 0
        for row in rows {
            for (index, value) in row.enumerated() {
                if index > 0 { data.append(UInt8(ascii: "\t")) }
                Self.appendCopyText(value, to: &data)
            }
            data.append(UInt8(ascii: "\n"))
            count += 1
        }
        try copy(into: table, columns: columns, text: data)
        return count
    }

    /// Sends `text`, rows already in COPY's text format (`appendCopyText`, tab-separated,
    /// newline-terminated), to `COPY table (columns) FROM STDIN`, in 256 KiB messages, and waits
    /// for the server to write them.
    public func copy(into table: String, columns: [String], text: [UInt8]) throws {
        try sendCopy(into: table, columns: columns, text: text)
        try finishSent()
    }

    /// Sends `text` to `COPY` as `copy(into:columns:text:)` does, without waiting for the server
    /// to write it: `finishSent` waits, and throws what the server met.
    public func sendCopy(into table: String, columns: [String], text: [UInt8]) throws {
        let sql = "COPY \(table) (\(columns.joined(separator: ", "))) FROM STDIN"
        try checked(CLibPQ_PQexec(handle, sql), sql: sql, expecting: PGRES_COPY_IN)
        let sent = text.withUnsafeBufferPointer { bytes -> Bool in
            guard let base = bytes.baseAddress else { return true }
            var offset = 0
            while offset < bytes.count {
                let length = min(bytes.count - offset, 1 << 18)
                let pointer = UnsafeRawPointer(base + offset).assumingMemoryBound(to: CChar.self)
                guard CLibPQ_PQputCopyData(handle, pointer, Int32(length)) == 1 else { return false }
                offset += length
            }
            return true
        }
        guard sent, CLibPQ_PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError(
                message: "COPY into \(table) failed: \(lostOr(Self.message(CLibPQ_PQerrorMessage(handle))))",
                sqlState: nil)
        }
        sentSQL = sql
    }

    /// Whether the connection is still up (false once the server has gone or closed it).
    public var isConnected: Bool { CLibPQ_PQstatus(handle) == CONNECTION_OK }

    /// Reconnects with the same parameters after the connection was lost.
    public func reconnect() throws {
        CLibPQ_PQreset(handle)
        guard isConnected else {
            throw PostgresError(
                message:
                    "cannot reconnect to \(location): \(PostgresURL.redacted(Self.message(CLibPQ_PQerrorMessage(handle)), about: url))",
                sqlState: nil)
        }
        try execute("SET client_min_messages = warning")
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
    private func checked(_ result: OpaquePointer?, sql: String, expecting expected: ExecStatusType? = nil) throws
        -> PostgresResult
    {
        guard let result else {
            throw PostgresError(message: "PostgreSQL: \(Self.message(CLibPQ_PQerrorMessage(handle)))", sqlState: nil)
        }
        let status = CLibPQ_PQresultStatus(result)
        let fine = expected.map { status == $0 } ?? (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK)
        guard fine else {
            let field = { (code: Character) in
                CLibPQ_PQresultErrorField(result, Int32(code.asciiValue ?? 0)).map { String(cString: $0) }
            }
            let state = field("C")
            // The server's primary message and its detail, without libpq's "ERROR:  " framing.
            let message =
                field("M").map { primary in [primary, field("D")].compactMap { $0 }.joined(separator: ": ").oneLine }
                ?? Self.message(CLibPQ_PQresultErrorMessage(result))
            CLibPQ_PQclear(result)
            throw PostgresError(
                message: "PostgreSQL: \(lostOr(PostgresURL.redacted(message, about: url)))", sqlState: state)
        }
        return PostgresResult(result)
    }

    /// `message`, saying so when the connection has been lost.
    private func lostOr(_ message: String) -> String {
        isConnected ? message : "\(message) (the connection to \(location) was lost)"
    }

    /// libpq's message on one line (see `oneLine`).
    private static func message(_ text: UnsafePointer<CChar>?) -> String { PostgresConnectionMessage.text(text) }

    /// Appends `value` in COPY's text format: `\N` for NULL; backslash, tab, newline and
    /// carriage return escaped.
    public static func appendCopyText(_ value: String?, to buffer: inout [UInt8]) {
        guard let value else {
            buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "N")])
            return
        }
        appendCopyText(bytes: value.utf8, to: &buffer)
    }

    /// Appends the UTF-8 text `bytes` in COPY's text format (escaped as `appendCopyText` does).
    @inlinable
    public static func appendCopyText<Bytes: Sequence<UInt8>>(bytes: Bytes, to buffer: inout [UInt8]) {
        for byte in bytes {
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

/// The server's notices and warnings (`RAISE WARNING`, `terminating connection …`) as log
/// events rather than libpq's raw lines on standard error (SPEC section 15: under
/// `--log-format json` every line there is JSON).
private final class NoticeLog {
    let logger: Logger

    init(logger: Logger) { self.logger = logger }

    /// Routes `connection`'s notices here; this object must outlive the connection.
    func receive(from connection: OpaquePointer) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = CLibPQ_PQsetNoticeReceiver(
            connection,
            { context, result in
                guard let context, let result else { return }
                Unmanaged<NoticeLog>.fromOpaque(context).takeUnretainedValue().log(result)
            }, context)
    }

    /// Logs one notice: its severity, SQLSTATE and message (with any URL password hidden).
    private func log(_ result: OpaquePointer) {
        let field = { (code: Character) in
            CLibPQ_PQresultErrorField(result, Int32(code.asciiValue ?? 0)).map { String(cString: $0) }
        }
        let severity = field("V") ?? field("S") ?? "NOTICE"
        let text = field("M").map { $0.oneLine } ?? PostgresConnectionMessage.text(CLibPQ_PQresultErrorMessage(result))
        var metadata: Logger.Metadata = [
            "severity": .string(severity), "message": .string(PostgresURL.redacted(text)),
        ]
        if let state = field("C") { metadata["sqlState"] = .string(state) }
        let level: Logger.Level
        switch severity {
        case "DEBUG", "LOG": level = .debug
        case "INFO", "NOTICE": level = .info
        default: level = .warning
        }
        logger.log(level: level, "postgresql notice", metadata: metadata)
    }
}

/// Calls `body` with C strings for `values` (NULL for `nil`), valid during the call.
private func withCStrings<T>(_ values: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
    let storage: [UnsafeMutablePointer<CChar>?] = values.map { $0.map { strdup($0) } ?? nil }
    defer { for value in storage { free(value) } }
    return body(storage.map { $0.map { UnsafePointer($0) } })
}

/// The rows of a statement (text format). One owner: `deinit` frees the libpq result.
public final class PostgresResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { CLibPQ_PQclear(handle) }

    public var rowCount: Int { Int(CLibPQ_PQntuples(handle)) }

    /// Rows inserted, updated or deleted (the command tag's count).
    public var affectedRows: Int { Int(String(cString: CLibPQ_PQcmdTuples(handle))) ?? 0 }

    /// A value as text; `nil` for NULL.
    public func text(row: Int, column: Int) -> String? {
        guard CLibPQ_PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: CLibPQ_PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// A value's bytes (text format, valid while this result lives); `nil` for NULL.
    public func bytes(row: Int, column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard CLibPQ_PQgetisnull(handle, Int32(row), Int32(column)) == 0,
            let value = CLibPQ_PQgetvalue(handle, Int32(row), Int32(column))
        else {
            return nil
        }
        let count = Int(CLibPQ_PQgetlength(handle, Int32(row), Int32(column)))
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// A value as an integer; `nil` for NULL or text that is not one.
    public func int64(row: Int, column: Int) -> Int64? { text(row: row, column: column).flatMap { Int64($0) } }
}

/// libpq's messages as ddkpi shows them.
private enum PostgresConnectionMessage {
    /// libpq's message on one line (see `oneLine`).
    static func text(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0).oneLine } ?? "unknown error"
    }
}

extension String {
    /// A message from libpq or the server on one line: its lines trimmed and joined with `; `
    /// (`connection … failed: Connection refused; Is the server running on that host …?`), since
    /// every message ddkpi writes is one line (SPEC section 15).
    fileprivate var oneLine: String {
        let lines = split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        return lines.isEmpty ? "unknown error" : lines.joined(separator: "; ")
    }
}
