import Foundation
import GRDB
import TestSupport
import Warehouse
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// SIGKILL at any point of an ingest leaves either nothing of the file or all of it, and a
/// re-run ends where a clean run does; readers never see `database is locked` (SPEC section 5).
final class CrashSafetyTests: XCTestCase {
    private var directory: URL!
    private static let rows = 200_000

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// 40 stores and a sales-audit CSV of `rows` store-days.
    private func writeInputs() throws -> (stores: String, sales: String) {
        var stores = "code,name,region\n"
        for store in 1...40 { stores += String(format: "%02d,Store %d,Region %d\n", store, store, store % 4) }
        var sales = "Store,Date,Net Sales,Transactions,Items\n"
        sales.reserveCapacity(Self.rows * 40)
        var day = 0
        var rows = 0
        while rows < Self.rows {
            let date = Date(timeIntervalSince1970: 946_684_800 + Double(day) * 86_400)
            let text = ISO8601DateFormatter.string(
                from: date, timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withFullDate])
            for store in 1...40 where rows < Self.rows {
                sales +=
                    String(format: "%02d,", store) + text
                    + ",\(store * 100 + day % 97).\(day % 100),\(1 + day % 9),\(2 + store % 7)\n"
                rows += 1
            }
            day += 1
        }
        return (
            try TestPaths.write(Array(stores.utf8), named: "stores.csv", in: directory),
            try TestPaths.write(Array(sales.utf8), named: "sales_audit_big.csv", in: directory)
        )
    }

    /// A new SQLite warehouse named `name` (or, with `postgres`, a new schema on the test
    /// server) holding `stores`; what `--db` takes for it.
    private func database(_ name: String, stores: String, postgres: Bool = false) throws -> String {
        let database =
            postgres ? try TestWarehouses.postgresWarehouseURL() : directory.appendingPathComponent(name).path
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        return database
    }

    /// The store_report rows, the ledger's ok runs and the integrity check (SQLite's; a
    /// PostgreSQL server keeps its own).
    private func state(_ database: String) throws -> (rows: Int, digest: String, okRuns: Int, integrity: String) {
        let warehouse = try Warehouse(path: database, mode: .readOnly)
        let rows = try warehouse.rows(
            "SELECT store_code, date, total_sales_cents, total_transactions, total_items FROM store_report ORDER BY date, store_code",
            columns: 5)
        let digest = rows.map { $0.map { $0 ?? "" }.joined() }.joined(separator: ";")
        let okRuns = Int(
            try warehouse.integer("SELECT count(*) FROM ingest_run WHERE status = 'ok' AND feed = 'sales-audit'") ?? -1)
        let integrity =
            try warehouse.location.backendName == "sqlite"
            ? warehouse.sqliteQueue().read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "" } : "ok"
        return (rows.count, digest, okRuns, integrity)
    }

    /// Starts `ddkpi` with `arguments` and SIGKILLs it after `delay` seconds (if still running).
    private func killed(after delay: Double, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(useconds_t(delay * 1_000_000))
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    func testSIGKILLDuringAnIngestLeavesAllOrNothingAndARerunMatchesACleanRun() throws {
        try killDuringAnIngest(postgres: false)
    }

    /// The same on PostgreSQL: the server rolls back the transaction of a client that died.
    func testSIGKILLDuringAnIngestIntoPostgreSQLLeavesAllOrNothing() throws {
        _ = try TestPostgres.url()
        try killDuringAnIngest(postgres: true)
    }

    private func killDuringAnIngest(postgres: Bool) throws {
        let (stores, sales) = try writeInputs()
        let clean = try database("clean.sqlite", stores: stores, postgres: postgres)
        let started = Date()
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", clean, "ingest", sales]).status, 0)
        let duration = Date().timeIntervalSince(started)
        let expected = try state(clean)
        XCTAssertEqual(expected.rows, Self.rows)
        for fraction in [0.02, 0.3, 0.6, 0.9, 1.5] {
            let path = try database("killed-\(fraction).sqlite", stores: stores, postgres: postgres)
            try killed(after: duration * fraction, ["--db", path, "ingest", sales])
            let after = try state(path)
            print(
                "kill -9 at \(fraction) of a clean run (\(Int(duration * fraction * 1000)) ms): \(after.rows) rows landed, integrity \(after.integrity)"
            )
            XCTAssertEqual(after.integrity, "ok", "killed at \(fraction)")
            XCTAssertTrue(
                after.rows == 0 || after.rows == Self.rows, "killed at \(fraction): \(after.rows) rows, all or nothing")
            XCTAssertEqual(after.okRuns, after.rows == 0 ? 0 : 1, "an ok ledger row exactly when the data landed")
            let rerun = try CommandRunner.ddkpi(["--db", path, "ingest", sales])
            XCTAssertEqual(rerun.status, 0, rerun.stderr)
            let final = try state(path)
            XCTAssertEqual(final.digest, expected.digest, "killed at \(fraction), then re-run")
            XCTAssertEqual(final.integrity, "ok")
            XCTAssertEqual(
                try CommandRunner.ddkpi(["--db", path, "rollups", "check"]).status, 0, "killed at \(fraction)")
        }
    }

    func testSIGKILLInInboxModeLosesAndDuplicatesNoFile() throws {
        let (stores, sales) = try writeInputs()
        let folders = ["inbox", "archive", "quarantine"].map { directory.appendingPathComponent($0).path }
        let clean = try database("clean.sqlite", stores: stores)
        let started = Date()
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", clean, "ingest", sales]).status, 0)
        let duration = Date().timeIntervalSince(started)
        let expected = try state(clean)
        let names = ["a_sales_audit_big.csv", "b_credit.csv", "c_sales_audit_bad.csv"]
        // During the big file, just after it (while it is moved), and among the small ones.
        for fraction in [0.5, 1.02, 1.1, 1.3] {
            for folder in folders {
                try? FileManager.default.removeItem(atPath: folder)
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            try FileManager.default.copyItem(atPath: sales, toPath: folders[0] + "/" + names[0])
            try "Store,Date\n01,2025-01-02\n".write(
                toFile: folders[0] + "/" + names[1], atomically: true, encoding: .utf8)
            try "Store,Date,Net Sales,Transactions,Items\n99,2025-01-02,1,1,1\n".write(
                toFile: folders[0] + "/" + names[2], atomically: true, encoding: .utf8)
            let path = try database("inbox-\(fraction).sqlite", stores: stores)
            let cron = [
                "--db", path, "ingest", "--inbox", folders[0], "--archive", folders[1], "--quarantine", folders[2],
            ]
            try killed(after: duration * fraction, cron)
            let placed = folders.map { (try? FileManager.default.contentsOfDirectory(atPath: $0).count) ?? 0 }
            print(
                "inbox kill -9 at \(fraction) of the big file's clean run: files in inbox/archive/quarantine \(placed)")
            // The re-run finishes what the killed run left: exit 1 while the bad file was still
            // in the inbox, else 0 (nothing left to do).
            let rerun = try CommandRunner.ddkpi(cron)
            XCTAssertTrue(
                rerun.status == 0 || rerun.status == 1,
                "exit status \(rerun.status) (after \(placed)): " + rerun.stdout + rerun.stderr)
            for name in names {
                let places = folders.filter { FileManager.default.fileExists(atPath: $0 + "/" + name) }
                XCTAssertEqual(places.count, 1, "\(name) after a kill at \(fraction): in \(places)")
            }
            XCTAssertTrue(FileManager.default.fileExists(atPath: folders[1] + "/" + names[0]))
            XCTAssertTrue(FileManager.default.fileExists(atPath: folders[2] + "/" + names[2]))
            XCTAssertTrue(FileManager.default.fileExists(atPath: folders[2] + "/" + names[2] + ".reason.txt"))
            XCTAssertEqual(try state(path).digest, expected.digest)
            XCTAssertEqual(try state(path).integrity, "ok")
        }
    }

    func testReportsRunWhileAnIngestCommits() throws {
        let (stores, sales) = try writeInputs()
        let path = try database("busy.sqlite", stores: stores)
        let small = try TestPaths.write(
            Array("Store,Date,Net Sales,Transactions,Items\n01,2000-01-01,5,1,1\n".utf8),
            named: "sales_audit_small.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", path, "ingest", small]).status, 0)
        let ingest = Process()
        ingest.executableURL = CommandRunner.executable
        ingest.arguments = ["--db", path, "ingest", "--force", sales]
        ingest.standardOutput = FileHandle.nullDevice
        ingest.standardError = FileHandle.nullDevice
        try ingest.run()
        var reports = 0
        while ingest.isRunning || reports < 30 {
            let result = try CommandRunner.ddkpi(["--db", path, "kpi", "--as-of", "2000-03-31", "--format", "csv"])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertFalse(result.stderr.contains("locked"), result.stderr)
            reports += 1
            if reports > 400 { break }
        }
        ingest.waitUntilExit()
        XCTAssertEqual(ingest.terminationStatus, 0)
        XCTAssertGreaterThanOrEqual(reports, 30)
    }
}
