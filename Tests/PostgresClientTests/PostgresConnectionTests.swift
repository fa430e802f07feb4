import Foundation
import Logging
import PostgresClient
import TestSupport
import Warehouse
import XCTest

/// The libpq layer of the PostgreSQL backend, against a real server on loopback.
final class PostgresConnectionTests: XCTestCase {
    func testStatementsParametersCopyAndTransactions() throws {
        let connection = try PostgresConnection(url: try TestPostgres.url())
        try connection.execute("DROP TABLE IF EXISTS ddkpi_probe")
        try connection.execute("CREATE TABLE ddkpi_probe (id BIGINT PRIMARY KEY, name TEXT, cents BIGINT)")
        defer { _ = try? connection.execute("DROP TABLE IF EXISTS ddkpi_probe") }
        let insert = try connection.execute(
            "INSERT INTO ddkpi_probe VALUES ($1, $2, $3)", ["1", "a \"quoted\" name", nil])
        XCTAssertEqual(insert.affectedRows, 1)
        let rows: [[String?]] = [
            ["2", "tab\there", "251137"], ["3", "back\\slash\nnewline", nil], ["4", "Café ✓", "-5"],
        ]
        XCTAssertEqual(try connection.copy(into: "ddkpi_probe", columns: ["id", "name", "cents"], rows: rows), 3)
        let result = try connection.execute("SELECT id, name, cents FROM ddkpi_probe ORDER BY id")
        XCTAssertEqual(result.rowCount, 4)
        XCTAssertEqual(
            (0..<4).map { result.text(row: $0, column: 1) },
            ["a \"quoted\" name", "tab\there", "back\\slash\nnewline", "Café ✓"])
        XCTAssertEqual(result.int64(row: 1, column: 2), 251_137)
        XCTAssertNil(result.text(row: 2, column: 2), "COPY's \\N is NULL")

        XCTAssertThrowsError(
            try connection.transaction {
                try connection.execute("INSERT INTO ddkpi_probe VALUES (5, 'x', 1)")
                try connection.execute("INSERT INTO ddkpi_probe VALUES (5, 'again', 1)")
            }
        ) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "23505", "unique violation")
        }
        XCTAssertEqual(
            try connection.execute("SELECT count(*) FROM ddkpi_probe").int64(row: 0, column: 0), 4, "rolled back whole")
    }

    func testAdvisoryLocksAreExclusiveAcrossSessions() throws {
        let url = try TestPostgres.url()
        let first = try PostgresConnection(url: url)
        let second = try PostgresConnection(url: url)
        XCTAssertTrue(try first.tryAdvisoryLock(4242))
        XCTAssertFalse(try second.tryAdvisoryLock(4242))
        try first.advisoryUnlock(4242)
        XCTAssertTrue(try second.tryAdvisoryLock(4242))
        try second.advisoryUnlock(4242)
    }

    func testPasswordsNeverAppearInErrors() throws {
        let secret = "s3cr3t-pw"
        XCTAssertThrowsError(
            try PostgresConnection(url: "postgresql://ddkpi:\(secret)@127.0.0.1:1/nowhere?connect_timeout=2")
        ) { error in
            let text = "\(error)"
            XCTAssertFalse(text.contains(secret), text)
            XCTAssertTrue(text.hasPrefix("cannot connect to postgresql://ddkpi:***@127.0.0.1:1/nowhere"), text)
        }
        XCTAssertEqual(
            PostgresURL.redacted("postgres://u:p%40ss@h:5432/db?sslmode=require&password=other"),
            "postgres://u:***@h:5432/db?sslmode=require&password=***")
        XCTAssertEqual(DatabaseLocation("postgresql://h/db"), .postgres(url: "postgresql://h/db"))
        XCTAssertEqual(DatabaseLocation("warehouse.sqlite"), .sqlite(path: "warehouse.sqlite"))
    }

    func testAPasswordMayHoldAtSignsColonsAndSlashes() throws {
        XCTAssertEqual(PostgresURL.redacted("postgresql://u:p@ss:w@rd@h:5432/db"), "postgresql://u:***@h:5432/db")
        XCTAssertEqual(
            PostgresURL.redacted("postgresql://u:Ab3/xY+z@h/db?sslmode=require"),
            "postgresql://u:***@h/db?sslmode=require")
        XCTAssertEqual(
            PostgresURL.redacted("from postgresql://u:a@b@h/db and postgres://v:c/d@k/e: failed"),
            "from postgresql://u:***@h/db and postgres://v:***@k/e: failed")
        XCTAssertEqual(
            PostgresURL.redacted("postgresql://h:5432/db?application_name=x"),
            "postgresql://h:5432/db?application_name=x")
        XCTAssertEqual(PostgresURL.redacted("password=a password=b"), "password=*** password=***")
        XCTAssertEqual(
            PostgresURL.forLibpq("postgresql://u:p@ss:w/rd@h:5432/db?x=y@z"),
            "postgresql://u:p%40ss:w%2Frd@h:5432/db?x=y@z")
        XCTAssertEqual(PostgresURL.forLibpq("postgresql://user@server@h/db"), "postgresql://user%40server@h/db")
        XCTAssertEqual(PostgresURL.forLibpq("postgresql://u:p%40ss@h/db"), "postgresql://u:p%40ss@h/db")
        XCTAssertEqual(PostgresURL.forLibpq("host=h password=a@b"), "host=h password=a@b")

        XCTAssertThrowsError(
            try PostgresConnection(url: "postgresql://ddkpi:p@ss:w@rd@127.0.0.1:1/nowhere?connect_timeout=2")
        ) { error in
            let text = "\(error)"
            XCTAssertTrue(text.hasPrefix("cannot connect to postgresql://ddkpi:***@127.0.0.1:1/nowhere"), text)
            XCTAssertTrue(
                text.contains("port 1 failed: Connection refused; Is the server running"),
                "libpq went to the host, on one line: \(text)")
            for fragment in ["ss:w", "w@rd", "rd@"] { XCTAssertFalse(text.contains(fragment), text) }
        }
        // The server (trust authentication on loopback) is reached with such a password too.
        let url = try TestPostgres.url()
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@"),
            !url[scheme.upperBound..<at].contains(":")
        else { throw XCTSkip("the test server's URL has a password of its own") }
        var typed = url
        typed.insert(contentsOf: ":p@ss:w/rd", at: at)
        XCTAssertEqual(try PostgresConnection(url: typed).execute("SELECT 1").int64(row: 0, column: 0), 1)
    }

    /// Issue 42, N3: a password `Tail<c>SECRET`, for every printable ASCII character `c`, is
    /// hidden whole in every message naming the database, libpq's own included.
    func testNoPrintableCharacterLetsAPasswordShow() throws {
        var passwords = (UInt8(0x20)...UInt8(0x7E)).map { "Tail\(Character(UnicodeScalar($0)))SECRET" }
        passwords += ["Tail%zzSECRET", "Tail%00SECRET", "Tail%4SECRET", "p@ss:w/rd@SECRET", "Tail?x=1@SECRET"]
        for password in passwords {
            let url = "postgresql://ddkpi:\(password)@127.0.0.1:1/ddkpi?connect_timeout=2"
            let shown = "postgresql://ddkpi:***@127.0.0.1:1/ddkpi?connect_timeout=2"
            XCTAssertEqual(PostgresURL.masked(url), shown, password)
            XCTAssertEqual(DatabaseLocation(url).description, shown, password)
            XCTAssertEqual(PostgresURL.password(in: url), password)
            XCTAssertEqual(
                PostgresURL.redacted("cannot connect to \(url): refused"), "cannot connect to \(shown): refused",
                password)
            XCTAssertThrowsError(try PostgresConnection(url: url), password) { error in
                let text = "\(error)"
                XCTAssertFalse(text.contains("SECRET"), text)
                XCTAssertTrue(text.hasPrefix("cannot connect to \(shown): "), text)
                if password.contains("%00") {
                    XCTAssertTrue(text.hasSuffix("forbidden value %00 in percent-encoded value: \"***\""), text)
                } else {
                    XCTAssertTrue(text.contains("port 1 failed: Connection refused"), "libpq went to the host: \(text)")
                }
            }
        }
        XCTAssertEqual(
            PostgresURL.masked("postgresql://u@h/db?password=Tail SECRET&sslmode=require"),
            "postgresql://u@h/db?password=***&sslmode=require")
        XCTAssertEqual(
            PostgresURL.redacted("host=h password='Tail SECRET' dbname=d"), "host=h password=*** dbname=d")
        XCTAssertEqual(
            PostgresURL.url("postgresql://u:a?b@h/db", searchPath: "s"),
            "postgresql://u:a?b@h/db?options=-csearch_path%3Ds")
        XCTAssertEqual(
            PostgresURL.forLibpq("postgresql://u:Tail%zz/SECRET@h/db?application_name=a%b&options=-cx%3Dy"),
            "postgresql://u:Tail%25zz%2FSECRET@h/db?application_name=a%25b&options=-cx%3Dy")
    }

    /// Issue 42, N3: such passwords reach the server as typed (SCRAM authentication on a cluster
    /// of the test's own), and a wrong one is refused without showing it.
    func testPasswordsWithAnyPrintableCharacterSignIn() throws {
        let server = try ThrowawayPostgres()
        let admin = try PostgresConnection(url: server.url)
        try admin.execute("CREATE ROLE ddkpi_pw LOGIN")
        try server.requirePassword(of: "ddkpi_pw")
        guard let at = server.url.range(of: "postgres@") else { return XCTFail(server.url) }
        let place = server.url[at.upperBound...]
        for byte in UInt8(0x20)...UInt8(0x7E) {
            let password = "Tail\(Character(UnicodeScalar(byte)))SECRET"
            try admin.execute("ALTER ROLE ddkpi_pw PASSWORD '\(password.replacingOccurrences(of: "'", with: "''"))'")
            let connection = try PostgresConnection(url: "postgresql://ddkpi_pw:\(password)@\(place)")
            XCTAssertEqual(try connection.execute("SELECT current_user").text(row: 0, column: 0), "ddkpi_pw", password)
            XCTAssertThrowsError(try PostgresConnection(url: "postgresql://ddkpi_pw:\(password)x@\(place)")) { error in
                let text = "\(error)"
                XCTAssertFalse(text.contains("SECRET"), text)
                XCTAssertTrue(text.contains("password authentication failed for user \"ddkpi_pw\""), text)
            }
        }
    }

    /// Issue 42, N10: the server's warnings go to the connection's logger as `postgresql notice`
    /// events, never raw to standard error (where libpq's default processor wrote them).
    func testServerNoticesGoToTheLoggerNotToStandardError() throws {
        let url = try TestPostgres.url()
        let captured = CapturedEvents()
        let logger = Logger(label: "test", factory: { _ in CapturingLogHandler(store: captured) })
        let connection = try PostgresConnection(url: url, logger: logger)
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stderrPath = directory.appendingPathComponent("stderr.txt").path
        let file = open(stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let saved = dup(2)
        XCTAssertTrue(file >= 0 && saved >= 0)
        fflush(stderr)
        dup2(file, 2)
        let ran = Result { try connection.execute("DO $$ BEGIN RAISE WARNING 'ddkpi notice probe %', 42; END $$") }
        fflush(stderr)
        dup2(saved, 2)
        close(saved)
        close(file)
        _ = try ran.get()
        let written = try String(contentsOfFile: stderrPath, encoding: .utf8)
        XCTAssertEqual(written, "", "nothing raw on standard error")
        let events = captured.events
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.level, .warning)
        XCTAssertEqual(events.first?.message, "postgresql notice")
        XCTAssertEqual(events.first?.metadata["message"], .string("ddkpi notice probe 42"))
        XCTAssertEqual(events.first?.metadata["severity"], .string("WARNING"))
        XCTAssertEqual(events.first?.metadata["sqlState"], .string("01000"))
    }
}

/// What a `CapturingLogHandler` was given.
private final class CapturedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] = []

    var events: [(level: Logger.Level, message: String, metadata: Logger.Metadata)] {
        lock.withLock { stored }
    }

    func append(_ event: LogEvent) {
        lock.withLock { stored.append((event.level, "\(event.message)", event.metadata ?? [:])) }
    }
}

/// A swift-log handler that keeps every event for the test to look at.
private struct CapturingLogHandler: LogHandler {
    let store: CapturedEvents
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { store.append(event) }
}
