import Foundation
import PostgresClient
import TestSupport
import Warehouse
import XCTest

/// The command line against a PostgreSQL warehouse (SPEC section 14): the URL in `--db`, the
/// cron lock, migrations and the errors of a server that is not there.
final class PostgresCommandTests: XCTestCase {
    func testMigrateThenReadOnlyCommandsAndIngest() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        let missing = try CommandRunner.ddkpi(["--db", url, "runs"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("no warehouse at postgresql://"), missing.stderr)
        let migrate = try CommandRunner.ddkpi(["--db", url, "migrate"])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertTrue(migrate.stdout.contains("applied \(Warehouse.migrationNames.count) migrations"), migrate.stdout)
        XCTAssertTrue(try CommandRunner.ddkpi(["--db", url, "migrate"]).stdout.contains("the schema is current"))
        let stores = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/reference/stores.csv").path
        let imported = try CommandRunner.ddkpi(
            ["--db", url, "stores", "import", stores], environment: ["DDKPI_DB": "ignored.sqlite"])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let runs = try CommandRunner.ddkpi(["runs", "--format", "json"], environment: ["DDKPI_DB": url])
        XCTAssertEqual(runs.status, 0, runs.stderr)
        XCTAssertTrue(runs.stdout.contains("\"status\" : \"ok\""), runs.stdout)
    }

    func testASecondCronRunAnywhereExitsThree() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let holder = try Warehouse(location: .postgres(url: url))
        let lock = try XCTUnwrap(try holder.tryIngestLock())
        let inbox = directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let cron = [
            "--db", url, "ingest", "--inbox", inbox.path, "--archive", inbox.path + "-a", "--quarantine",
            inbox.path + "-q",
        ]
        let blocked = try CommandRunner.ddkpi(cron + ["--lock-timeout", "0"])
        XCTAssertEqual(blocked.status, 3)
        XCTAssertTrue(blocked.stderr.contains("another ingest holds the lock"), blocked.stderr)
        lock.release()
        XCTAssertEqual(try CommandRunner.ddkpi(cron).status, 0)
    }

    /// Issue 42, N2: a cron run as a role that may only read, or whose transactions are read-only
    /// (a hot standby after a failover), leaves every file in the inbox and exits 2; nothing is
    /// quarantined.
    func testACronRunTheServerRefusesToWriteLeavesTheFilesInTheInbox() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/reference/stores.csv").path
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", url, "stores", "import", stores]).status, 0)
        let admin = try PostgresConnection(url: url)
        let schema = try XCTUnwrap(admin.execute("SELECT current_schema()").text(row: 0, column: 0))
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let (reader, standby) = ("ddkpi_reader_\(suffix)", "ddkpi_standby_\(suffix)")
        try admin.executeScript(
            """
            CREATE ROLE \(reader) LOGIN;
            GRANT USAGE ON SCHEMA \(schema) TO \(reader);
            GRANT SELECT ON ALL TABLES IN SCHEMA \(schema) TO \(reader);
            CREATE ROLE \(standby) LOGIN;
            GRANT ALL ON SCHEMA \(schema) TO \(standby);
            GRANT ALL ON ALL TABLES IN SCHEMA \(schema) TO \(standby);
            GRANT ALL ON ALL SEQUENCES IN SCHEMA \(schema) TO \(standby);
            ALTER ROLE \(standby) SET default_transaction_read_only = on;
            """)
        defer {
            for role in [reader, standby] { _ = try? admin.executeScript("DROP OWNED BY \(role); DROP ROLE \(role)") }
        }
        guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
            return XCTFail(url)
        }
        for role in [reader, standby] {
            let roleURL = url.replacingCharacters(in: scheme.upperBound..<at, with: role)
            let inbox = directory.appendingPathComponent(role)
            let (archive, quarantine) = (inbox.path + "-archive", inbox.path + "-quarantine")
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            for day in ["01", "02"] {
                try TestPaths.write(
                    Array("Store,Date,Net Sales,Transactions,Items\n08,2025-07-\(day),7000.00,21,35\n".utf8),
                    named: "SalesAudit_2025-07-\(day).csv", in: inbox)
            }
            let result = try CommandRunner.ddkpi([
                "--db", roleURL, "ingest", "--inbox", inbox.path, "--archive", archive, "--quarantine", quarantine,
            ])
            XCTAssertEqual(result.status, 2, "\(role): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains("the files not ingested stay for the next run"), result.stderr)
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: inbox.path).sorted(),
                ["SalesAudit_2025-07-01.csv", "SalesAudit_2025-07-02.csv"], role)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: quarantine), [], role)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: archive), [], role)
        }
        XCTAssertEqual(
            try admin.execute("SELECT count(*) FROM ingest_run WHERE feed = 'sales-audit'").int64(row: 0, column: 0), 0)
    }

    func testAServerThatIsNotThereExitsTwoAndNeverShowsThePassword() throws {
        for arguments in [["kpi", "--as-of", "2025-06-15"], ["ingest", "x.csv"], ["migrate"]] {
            let result = try CommandRunner.ddkpi(
                ["--db", "postgresql://analyst:s3cret@127.0.0.1:1/warehouse?connect_timeout=2"] + arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains("postgresql://analyst:***@127.0.0.1:1/warehouse"), result.stderr)
            XCTAssertFalse(result.stderr.contains("s3cret") || result.stdout.contains("s3cret"), result.stderr)
        }
    }

    /// Issue 42, N3: whatever printable character a password holds, neither a text nor a JSON
    /// log shows it.
    func testNoPrintableCharacterLetsAPasswordIntoTheLogs() throws {
        for byte in UInt8(0x20)...UInt8(0x7E) {
            let password = "Tail\(Character(UnicodeScalar(byte)))SECRET"
            let url = "postgresql://ddkpi:\(password)@127.0.0.1:1/ddkpi"
            for arguments in [["ingest", "--log-format", "json", "x.csv"], ["kpi", "--as-of", "2025-06-15"]] {
                let result = try CommandRunner.ddkpi(["--db", url] + arguments)
                XCTAssertEqual(result.status, 2, password)
                XCTAssertFalse(result.stderr.contains("SECRET") || result.stdout.contains("SECRET"), result.stderr)
                XCTAssertTrue(
                    result.stderr.contains("cannot connect to postgresql://ddkpi:***@127.0.0.1:1/ddkpi"), result.stderr)
            }
        }
    }

    /// Issue 42, N10: a warning the server sends mid-run is a JSON line under `--log-format json`
    /// (every standard error line is one) and a `ddkpi: warning:` line in text.
    func testServerWarningsAreLoggedInTheLogFormat() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stores = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/reference/stores.csv").path
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", url, "stores", "import", stores]).status, 0)
        try PostgresConnection(url: url).executeScript(
            """
            CREATE FUNCTION ddkpi_warn() RETURNS trigger LANGUAGE plpgsql AS
                $$ BEGIN RAISE WARNING 'ddkpi notice probe'; RETURN NEW; END $$;
            CREATE TRIGGER ddkpi_warn BEFORE INSERT ON ingest_run FOR EACH ROW EXECUTE FUNCTION ddkpi_warn();
            """)
        for (day, format) in [("01", "json"), ("02", "text")] {
            let file = try TestPaths.write(
                Array("Store,Date,Net Sales,Transactions,Items\n08,2025-07-\(day),7000.00,21,35\n".utf8),
                named: "SalesAudit_2025-07-\(day).csv", in: directory)
            let result = try CommandRunner.ddkpi(["--db", url, "ingest", "--log-format", format, file])
            XCTAssertEqual(result.status, 0, result.stderr)
            let lines = result.stderr.split(separator: "\n")
            if format == "json" {
                XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("{") && $0.hasSuffix("}") }, result.stderr)
                XCTAssertTrue(
                    lines.contains {
                        $0.contains("\"event\":\"postgresql notice\"") && $0.contains("\"level\":\"warning\"")
                            && $0.contains("\"message\":\"ddkpi notice probe\"")
                    }, result.stderr)
            } else {
                XCTAssertTrue(
                    lines.contains(
                        "ddkpi: warning: postgresql notice: ddkpi notice probe (severity WARNING, sqlState 01000)"),
                    result.stderr)
            }
            XCTAssertFalse(result.stderr.contains("WARNING:  "), result.stderr)
        }
    }

    func testAMissingDatabaseExitsTwoAndSaysSo() throws {
        let server = try TestPostgres.url()
        guard let slash = server.range(of: "/", options: .backwards) else { return XCTFail(server) }
        let missing = server[..<slash.upperBound] + "ddkpi_no_such_database"
        let result = try CommandRunner.ddkpi(["--db", String(missing), "kpi", "--as-of", "2025-06-15"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("database \"ddkpi_no_such_database\" does not exist"), result.stderr)
    }
}
