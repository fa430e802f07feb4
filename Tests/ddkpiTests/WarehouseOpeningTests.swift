import Foundation
import PostgresClient
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// How commands open the warehouse (SPEC section 5): read-only commands never create or
/// migrate it; write commands and `ddkpi migrate` do, under the ingest lock.
final class WarehouseOpeningTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws {
        // Folders a test made read-only become removable again (for a test run by another user than root).
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            chmod(directory.appendingPathComponent(name).path, 0o755)
        }
        try FileManager.default.removeItem(at: directory)
    }

    func testReadOnlyCommandsOnAMissingWarehouseExitTwoAndCreateNothing() throws {
        let database = directory.appendingPathComponent("missing.sqlite").path
        let commands: [[String]] = [
            ["runs"], ["kpi", "--as-of", "2025-06-15"], ["review", "--quarter", "2025Q2"],
            ["employees", "--as-of", "2025-06-15"],
            ["merch", "--quarter", "2025Q2", "--by", "vendor"], ["status", "--as-of", "2025-06-15"],
            ["rollups", "check"],
        ]
        for command in commands {
            let result = try CommandRunner.ddkpi(["--db", database] + command)
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertEqual(
                result.stderr, "ddkpi: error: no warehouse at \(database) (run `ddkpi stores import` first)\n")
        }
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "no file, -wal, -shm or lock")
    }

    func testAnOlderSchemaAsksForMigrateWhichAppliesItUnderTheLock() throws {
        let database = directory.appendingPathComponent("old.sqlite").path
        let stores = try TestPaths.write(
            Array("code,name,region\n08,Natick,East\n".utf8), named: "stores.csv", in: directory)
        let sales = try TestPaths.write(
            Array("Store,Date,Net Sales,Transactions,Items\n08,2025-06-02,100,1,1\n".utf8), named: "sales_audit.csv",
            in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "ingest", sales]).status, 0)
        // Make it a warehouse of the build before weekly sales: undo the last migration's work
        // (its columns, and its history trigger, which it makes again).
        let downgrade = try CommandRunner.run(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys
                c = sqlite3.connect(sys.argv[1])
                c.execute("DELETE FROM grdb_migrations WHERE identifier = 'v16: weekly sales and closed days'")
                c.execute("DROP TRIGGER store_report_history")
                for table in ("store_report", "store_report_history"):
                    for column in ("grain", "closed"):
                        c.execute("ALTER TABLE " + table + " DROP COLUMN " + column)
                c.execute("CREATE TRIGGER store_report_history AFTER UPDATE ON store_report BEGIN SELECT 1; END")
                c.commit()
                """,
                database,
            ])
        XCTAssertEqual(downgrade.status, 0, downgrade.stderr)

        let kpi = try CommandRunner.ddkpi(["--db", database, "kpi", "--as-of", "2025-06-15"])
        XCTAssertEqual(kpi.status, 2)
        XCTAssertEqual(
            kpi.stderr,
            "ddkpi: error: the warehouse \(database) has an older schema (pending: v16: weekly sales and closed days); run `ddkpi migrate`\n"
        )

        let migrate = try CommandRunner.ddkpi(["--db", database, "migrate"])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertEqual(migrate.stdout, "\(database): applied 1 migration: v16: weekly sales and closed days\n")
        XCTAssertEqual(
            try CommandRunner.ddkpi(["--db", database, "rollups", "check"]).status, 0, "the migration built the rollups"
        )
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "kpi", "--as-of", "2025-06-15"]).status, 0)
        XCTAssertEqual(
            try CommandRunner.ddkpi(["--db", database, "migrate"]).stdout,
            "\(database): the schema is current; nothing to migrate\n")
    }

    func testAFailedFileNamesItsPathOnce() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        let stores = try TestPaths.write(Array("code,name\n08,Natick\n".utf8), named: "stores.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        let malformed = TestPaths.fixture("malformed_sheet.xlsx")
        let result = try CommandRunner.ddkpi(["--db", database, "ingest", "--feed", "sales-audit", malformed])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.components(separatedBy: malformed).count, 2, "the path once: \(result.stderr)")
        XCTAssertTrue(
            result.stderr.hasPrefix("ddkpi: error: \(malformed): xl/worksheets/sheet1.xml byte "), result.stderr)
    }

    func testValidationErrorsHaveOnePrefixAndHelpNamesNoSpecSection() throws {
        let result = try CommandRunner.ddkpi(["kpi", "--as-of", "2025-13-01"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.hasPrefix("ddkpi: error: --as-of 2025-13-01: expected a date as YYYY-MM-DD\n"), result.stderr)
        for command in [
            ["--help"], ["dump", "--help"], ["ingest", "--help"], ["kpi", "--help"], ["status", "--help"],
        ] {
            let help = try CommandRunner.ddkpi(command)
            XCTAssertFalse((help.stdout + help.stderr).contains("SPEC"), command.joined(separator: " "))
        }
    }

    /// Every report a read-only command gives, with dates the sample feeds cover.
    private static let readOnlyReports: [[String]] = [
        ["kpi", "--as-of", "2025-06-15"], ["review", "--quarter", "2025Q2"], ["runs"],
        ["status", "--as-of", "2025-07-01"],
        ["employees", "--as-of", "2025-06-30", "--period", "QTD"], ["merch", "--quarter", "2025Q2", "--by", "vendor"],
        ["runs", "show", "1"], ["rollups", "check"],
    ]

    /// Issue 20, defect 5: an analyst who may read the warehouse file but not write it, in a
    /// folder they may not write, got exit 2 ("attempt to write a readonly database … PRAGMA
    /// cache_size") from every report. Read-only commands now open it read-only, and `immutable`
    /// when SQLite cannot create the WAL index beside it: the same output as its owner gets,
    /// and nothing written.
    func testAReadOnlyWarehouseCanBeRead() throws {
        let database = try sampleWarehouse()
        XCTAssertFalse(FileManager.default.fileExists(atPath: database + "-wal"), "closed: the file alone, in WAL mode")
        let copy = try readOnlyCopy(of: database, with: [], in: "analyst")
        for command in Self.readOnlyReports {
            let owner = try CommandRunner.ddkpi(["--db", database] + command)
            XCTAssertEqual(owner.status, 0, "\(command): \(owner.stderr)")
            let analyst = try UnprivilegedUser.ddkpi(["--db", copy] + command)
            XCTAssertEqual(analyst.status, 0, "\(command): \(analyst.stderr)")
            XCTAssertEqual(analyst.stdout, owner.stdout, command.joined(separator: " "))
            XCTAssertEqual(analyst.stderr, owner.stderr, command.joined(separator: " "))
        }
        let analystFolder = directory.appendingPathComponent("analyst").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: analystFolder), ["warehouse.sqlite"])
    }

    /// Issue 20, defect 5, a warehouse left with commits in its write-ahead log (its writer
    /// killed): with the WAL index beside it the analyst reads them; without it, in a folder they
    /// may not write, `immutable` would miss them, so the command exits 2 and says why.
    func testAReadOnlyWarehouseCanBeReadWithItsWriteAheadLogOrIsRefusedClearly() throws {
        let database = try sampleWarehouse()
        let leaveLog = try CommandRunner.run(
            "python3",
            [
                "-c",
                "import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_autocheckpoint = 0'); "
                    + "c.execute(\"UPDATE store SET name = name || ' (logged)'\"); c.commit(); os._exit(0)",
                database,
            ])
        XCTAssertEqual(leaveLog.status, 0, leaveLog.stderr)
        let logSize = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: database + "-wal")[.size] as? Int)
        XCTAssertGreaterThan(logSize, 0, "the commit is in the log only")
        let withIndex = try readOnlyCopy(of: database, with: ["-wal", "-shm"], in: "with-index")
        let logOnly = try readOnlyCopy(of: database, with: ["-wal"], in: "log-only")
        let kpi = ["kpi", "--as-of", "2025-06-15"]

        let owner = try CommandRunner.ddkpi(["--db", database] + kpi)
        XCTAssertEqual(owner.status, 0, owner.stderr)
        XCTAssertTrue(owner.stdout.contains(" (logged)"), owner.stdout)
        let analyst = try UnprivilegedUser.ddkpi(["--db", withIndex] + kpi)
        XCTAssertEqual(analyst.status, 0, analyst.stderr)
        XCTAssertEqual(analyst.stdout, owner.stdout, "the log's commits read through the index")

        let refused = try UnprivilegedUser.ddkpi(["--db", logOnly] + kpi)
        XCTAssertEqual(refused.status, 2)
        let folder = directory.appendingPathComponent("log-only").path
        XCTAssertEqual(
            refused.stderr,
            "ddkpi: error: cannot read the warehouse \(logOnly): its write-ahead log \(logOnly)-wal holds "
                + "\(logSize) bytes of commits not yet in the file, and SQLite cannot create the log's index "
                + "(\(logOnly)-shm) in \(folder), which you may not write; ask someone who may write that folder to run "
                + "`ddkpi migrate` there, which folds the log into the file\n")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted(),
            ["warehouse.sqlite", "warehouse.sqlite-wal"],
            "nothing written beside it")

        // What the message advises: `migrate` folds the log into the file, which then reads alone.
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "migrate"]).status, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: database + "-wal"))
        let folded = try readOnlyCopy(of: database, with: [], in: "folded")
        let afterMigrate = try UnprivilegedUser.ddkpi(["--db", folded] + kpi)
        XCTAssertEqual(afterMigrate.status, 0, afterMigrate.stderr)
        XCTAssertEqual(afterMigrate.stdout, owner.stdout)
    }

    /// Write commands, then read-only ones, on a database that must not be touched.
    private func everyKindOfCommand() throws -> [[String]] {
        let stores = try TestPaths.write(
            Array("code,name,region\n08,Natick,East\n".utf8), named: "stores.csv", in: directory)
        let sales = try TestPaths.write(
            Array("Store,Date,Net Sales,Transactions,Items\n08,2025-06-02,100,1,1\n".utf8), named: "sales_audit.csv",
            in: directory)
        return [
            ["stores", "import", stores], ["ingest", sales], ["migrate"], ["rollups", "rebuild"],
            ["runs"], ["kpi", "--as-of", "2025-06-15"], ["review", "--quarter", "2025Q2"],
            ["status", "--as-of", "2025-06-15"],
            ["rollups", "check"],
        ]
    }

    /// Issue 20, defect 6: another application's SQLite file silently got ddkpi's tables added.
    /// A file that has tables but no ddkpi migration is refused (exit 2) by write and read
    /// commands alike, and left byte for byte as it was, with nothing beside it.
    func testAnotherApplicationsSQLiteFileIsRefusedNotExtended() throws {
        let database = directory.appendingPathComponent("crm.sqlite").path
        let made = try CommandRunner.run(
            "python3",
            [
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                    + "c.execute('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)'); "
                    + "c.execute('CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER REFERENCES customers(id))'); "
                    + "c.execute(\"INSERT INTO customers VALUES (1, 'Ada')\"); c.commit(); c.close()",
                database,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let commands = try everyKindOfCommand()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: database))
        let listing = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        for command in commands {
            let result = try CommandRunner.ddkpi(["--db", database] + command)
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertEqual(
                result.stderr,
                "ddkpi: error: \(database) has tables (customers, orders) but is not a ddkpi warehouse; ddkpi leaves it as "
                    + "it is (give --db a ddkpi warehouse or a new one)\n", command.joined(separator: " "))
        }
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: database)), bytes, "the same bytes, so the same tables")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(), listing,
            "no -wal, -shm or lock")
    }

    /// Issue 20, defect 6: an empty file, or a SQLite file without tables, is not another
    /// application's database: a write command makes it a warehouse.
    func testAnEmptyFileOrOneWithoutTablesBecomesAWarehouse() throws {
        let empty = directory.appendingPathComponent("empty.sqlite").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: nil))
        let noTables = directory.appendingPathComponent("no-tables.sqlite").path
        let made = try CommandRunner.run(
            "python3",
            [
                "-c",
                "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 7'); c.close()",
                noTables,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let stores = try TestPaths.write(
            Array("code,name,region\n08,Natick,East\n".utf8), named: "stores.csv", in: directory)
        for database in [empty, noTables] {
            let imported = try CommandRunner.ddkpi(["--db", database, "stores", "import", stores])
            XCTAssertEqual(imported.status, 0, imported.stderr)
            let runs = try CommandRunner.ddkpi(["--db", database, "runs"])
            XCTAssertEqual(runs.status, 0, runs.stderr)
        }
    }

    /// Issue 20, defect 6 on PostgreSQL: a schema that has tables but no `ddkpi_migrations` is
    /// refused the same way, the URL shown with its password hidden, and keeps its one table.
    func testAnotherApplicationsPostgreSQLSchemaIsRefusedNotExtended() throws {
        var url = try TestWarehouses.postgresWarehouseURL()
        let setup = try PostgresConnection(url: url)
        try setup.execute("CREATE TABLE customers (id integer PRIMARY KEY, name text)")
        try setup.execute("INSERT INTO customers VALUES (1, 'Ada')")
        let schema = try XCTUnwrap(try setup.execute("SELECT current_schema()").text(row: 0, column: 0))
        if PostgresURL.redacted(url) == url {
            // A password the server does not ask for (the test server trusts loopback), to see it hidden.
            url += "&password=not-for-messages"
        }
        for command in try everyKindOfCommand() {
            let result = try CommandRunner.ddkpi(["--db", url] + command)
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertEqual(
                result.stderr,
                "ddkpi: error: the schema \(schema) of \(PostgresURL.redacted(url)) has tables (customers) but is not a ddkpi "
                    + "warehouse; ddkpi leaves it as it is (give --db a ddkpi warehouse or a new one)\n",
                command.joined(separator: " "))
            XCTAssertFalse(result.stderr.contains("not-for-messages"))
        }
        let tables = try setup.execute("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        XCTAssertEqual((0..<tables.rowCount).compactMap { tables.text(row: $0, column: 0) }, ["customers"])
        XCTAssertEqual(try setup.execute("SELECT count(*) FROM customers").text(row: 0, column: 0), "1")
    }

    /// The sample feeds' warehouse in `owner/`, built and closed (its log folded into the file).
    private func sampleWarehouse() throws -> String {
        let owner = directory.appendingPathComponent("owner")
        try FileManager.default.createDirectory(at: owner, withIntermediateDirectories: true)
        chmod(directory.path, 0o755)
        let database = owner.appendingPathComponent("warehouse.sqlite").path
        _ = try SampleWarehouse.sampleFeeds(at: database)
        return database
    }

    /// Copies `database` and its side files (`suffixes`) into a new folder `name`, the files
    /// read-only (0444) and the folder too (0555): an analyst's view of the owner's warehouse.
    private func readOnlyCopy(of database: String, with suffixes: [String], in name: String) throws -> String {
        let folder = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("warehouse.sqlite").path
        for suffix in [""] + suffixes {
            try FileManager.default.copyItem(atPath: database + suffix, toPath: copy + suffix)
            XCTAssertEqual(chmod(copy + suffix, 0o444), 0)
        }
        XCTAssertEqual(chmod(folder.path, 0o555), 0)
        return copy
    }
}
