import Foundation
import TestSupport
import XCTest

/// How commands open the warehouse (SPEC section 5): read-only commands never create or
/// migrate it; write commands and `ddkpi migrate` do, under the ingest lock.
final class WarehouseOpeningTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func testReadOnlyCommandsOnAMissingWarehouseExitTwoAndCreateNothing() throws {
        let database = directory.appendingPathComponent("missing.sqlite").path
        let commands: [[String]] = [
            ["runs"], ["kpi", "--as-of", "2025-06-15"], ["review", "--quarter", "2025Q2"], ["employees", "--as-of", "2025-06-15"],
            ["merch", "--quarter", "2025Q2", "--by", "vendor"], ["status", "--as-of", "2025-06-15"], ["rollups", "check"],
        ]
        for command in commands {
            let result = try CommandRunner.ddkpi(["--db", database] + command)
            XCTAssertEqual(result.status, 2, command.joined(separator: " "))
            XCTAssertEqual(result.stderr, "ddkpi: error: no warehouse at \(database) (run `ddkpi stores import` first)\n")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "no file, -wal, -shm or lock")
    }

    func testAnOlderSchemaAsksForMigrateWhichAppliesItUnderTheLock() throws {
        let database = directory.appendingPathComponent("old.sqlite").path
        let stores = try TestPaths.write(Array("code,name,region\n08,Natick,East\n".utf8), named: "stores.csv", in: directory)
        let sales = try TestPaths.write(Array("Store,Date,Net Sales,Transactions,Items\n08,2025-06-02,100,1,1\n".utf8), named: "sales_audit.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "ingest", sales]).status, 0)
        // Make it a warehouse of the build before the rollups: drop the last migration's work.
        let downgrade = try CommandRunner.run("python3", [
            "-c",
            "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"DELETE FROM grdb_migrations WHERE identifier = 'v5: store-month rollups'\"); c.execute('DROP TABLE store_month_rollup'); c.commit()",
            database,
        ])
        XCTAssertEqual(downgrade.status, 0, downgrade.stderr)

        let kpi = try CommandRunner.ddkpi(["--db", database, "kpi", "--as-of", "2025-06-15"])
        XCTAssertEqual(kpi.status, 2)
        XCTAssertEqual(kpi.stderr, "ddkpi: error: the warehouse \(database) has an older schema (pending: v5: store-month rollups); run `ddkpi migrate`\n")

        let migrate = try CommandRunner.ddkpi(["--db", database, "migrate"])
        XCTAssertEqual(migrate.status, 0, migrate.stderr)
        XCTAssertEqual(migrate.stdout, "\(database): applied 1 migration: v5: store-month rollups\n")
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "rollups", "check"]).status, 0, "the migration built the rollups")
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "kpi", "--as-of", "2025-06-15"]).status, 0)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "migrate"]).stdout, "\(database): the schema is current; nothing to migrate\n")
    }

    func testAFailedFileNamesItsPathOnce() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        let stores = try TestPaths.write(Array("code,name\n08,Natick\n".utf8), named: "stores.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        let malformed = TestPaths.fixture("malformed_sheet.xlsx")
        let result = try CommandRunner.ddkpi(["--db", database, "ingest", "--feed", "sales-audit", malformed])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr.components(separatedBy: malformed).count, 2, "the path once: \(result.stderr)")
        XCTAssertTrue(result.stderr.hasPrefix("ddkpi: error: \(malformed): xl/worksheets/sheet1.xml byte "), result.stderr)
    }

    func testValidationErrorsHaveOnePrefixAndHelpNamesNoSpecSection() throws {
        let result = try CommandRunner.ddkpi(["kpi", "--as-of", "2025-13-01"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.hasPrefix("ddkpi: error: --as-of 2025-13-01: expected a date as YYYY-MM-DD\n"), result.stderr)
        for command in [["--help"], ["dump", "--help"], ["ingest", "--help"], ["kpi", "--help"], ["status", "--help"]] {
            let help = try CommandRunner.ddkpi(command)
            XCTAssertFalse((help.stdout + help.stderr).contains("SPEC"), command.joined(separator: " "))
        }
    }
}
