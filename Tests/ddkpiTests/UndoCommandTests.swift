import Foundation
import TestSupport
import Warehouse
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `ingest --undo`, `runs show` and `history prune` through the binary (SPEC section 16): a
/// wrong file that loaded cleanly is undone, and every report is byte for byte what it was.
final class UndoCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func ddkpi(_ database: String, _ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// The id of the newest run in the ledger.
    private func lastRun(_ database: String) throws -> Int64 {
        let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
        return try XCTUnwrap(try warehouse.integer("SELECT max(id) FROM ingest_run"))
    }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    /// Every golden report equals its file in `Reports/`.
    private func assertGoldenReports(_ database: String, _ context: String) throws {
        for (name, arguments) in GoldenReportTests.reports {
            let result = try ddkpi(database, arguments)
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let expected = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/\(name)"), encoding: .utf8)
            XCTAssertEqual(result.stdout, expected, "Reports/\(name) \(context)")
        }
        let check = try ddkpi(database, ["rollups", "check"])
        XCTAssertEqual(check.status, 0, "rollups check \(context): \(check.stdout)")
    }

    /// May and June 2025 sales with the decimal shifted (×10), and a day that never happened.
    private func wrongSales(_ database: String) throws -> String {
        let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
        var text = "Store,Date,Net Sales,Transactions,Items\n"
        for row in try warehouse.rows(
            """
            SELECT store_code, date, total_sales_cents, total_transactions, total_items FROM store_report
            WHERE date BETWEEN '2025-05-01' AND '2025-06-30' ORDER BY date, store_code
            """, columns: 5)
        {
            let cents = (Int(row[2] ?? "0") ?? 0) * 10
            text +=
                "\(row[0] ?? ""),\(row[1] ?? ""),\(cents / 100).\(String(format: "%02d", abs(cents % 100))),\(row[3] ?? ""),\(row[4] ?? "")\n"
        }
        return text + "08,2025-07-02,123.45,3,4\n"
    }

    func testAWrongFileUndoneLeavesEveryReportAsItWasOnEachBackend() throws {
        for database in [directory.appendingPathComponent("w.sqlite").path] + (try postgresIfAny()) {
            print("backend: \(database.hasPrefix("postgres") ? "postgresql" : "sqlite")")
            try GoldenReportTests.ingestSamples(into: database)
            let wrong = try write("sales_audit_wrong.csv", try wrongSales(database))
            XCTAssertEqual(try ddkpi(database, ["ingest", wrong]).status, 0)
            let first = try lastRun(database)
            let kpi = try ddkpi(database, ["kpi", "--as-of", "2025-06-15", "--format", "csv"])
            XCTAssertNotEqual(kpi.stdout, try golden("kpi-2025-06-15.csv"), "the wrong file changed the numbers")

            let shown = try ddkpi(database, ["runs", "show", "\(first)", "--limit", "1"])
            XCTAssertEqual(shown.status, 0, shown.stderr)
            XCTAssertTrue(shown.stdout.contains("changed keys: "), shown.stdout)
            XCTAssertTrue(shown.stdout.contains("store_report 2025-05-01 "), shown.stdout)

            // A later run over one of the same keys holds it: undoing the first keeps the later
            // run's value there (SPEC section 16); undoing the later run too gives the goldens back.
            let later = try write(
                "sales_audit_later.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-06-01,1.00,1,1\n")
            XCTAssertEqual(try ddkpi(database, ["ingest", later]).status, 0)
            let second = try lastRun(database)
            let undone = try ddkpi(database, ["ingest", "--undo", "\(first)"])
            XCTAssertEqual(undone.status, 0, undone.stderr)
            XCTAssertTrue(undone.stdout.hasPrefix("undone   run \(first): "), undone.stdout)
            XCTAssertTrue(undone.stdout.contains("(undo run \(second + 1))"), undone.stdout)
            XCTAssertNotEqual(
                try ddkpi(database, ["kpi", "--as-of", "2025-06-15", "--format", "csv"]).stdout,
                try golden("kpi-2025-06-15.csv"), "the later run's 06-01 stays")
            let undoneLater = try ddkpi(database, ["ingest", "--undo", "\(second)"])
            XCTAssertEqual(undoneLater.status, 0, undoneLater.stderr)
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", "\(second + 1)"]).status, 2, "an undo run")
            try assertGoldenReports(database, "after both undos")

            // The same bytes ingest again without --force, and undo again on their own.
            let again = try ddkpi(database, ["ingest", wrong])
            XCTAssertTrue(again.stdout.hasPrefix("ok "), again.stdout)
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", "\(try lastRun(database))"]).status, 0)
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", "\(first)"]).status, 2, "an undone run")

            // A goals import with other targets, undone: the old targets are back.
            let goals = try write(
                "goals_wrong.csv", "period,scope,metric,target\n2025-06,global,totalSales,1\n2025-06,08,upt,9\n")
            XCTAssertEqual(try ddkpi(database, ["goals", "import", goals]).status, 0)
            XCTAssertNotEqual(
                try ddkpi(database, ["kpi", "--as-of", "2025-06-15", "--format", "csv"]).stdout,
                try golden("kpi-2025-06-15.csv"))
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", "\(try lastRun(database))"]).status, 0)
            try assertGoldenReports(database, "after undoing the goals import")
        }
    }

    func testPrunedRunsCannotBeUndoneAndRunsSaysSo() throws {
        let database = directory.appendingPathComponent("p.sqlite").path
        XCTAssertEqual(
            try ddkpi(database, ["stores", "import", try write("stores.csv", "code,name\n08,Natick\n")]).status, 0)
        XCTAssertEqual(
            try ddkpi(
                database,
                [
                    "ingest",
                    try write("sales_audit.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-06-01,1,1,1\n"),
                ]
            ).status, 0)
        let run = try lastRun(database)
        let pruned = try ddkpi(database, ["history", "prune", "--before", "2999-01-01"])
        XCTAssertEqual(pruned.status, 0, pruned.stderr)
        let undo = try ddkpi(database, ["ingest", "--undo", "\(run)"])
        XCTAssertEqual(undo.status, 2)
        XCTAssertTrue(undo.stderr.contains("its history was pruned"), undo.stderr)
        XCTAssertTrue(try ddkpi(database, ["runs", "show", "\(run)"]).stdout.contains("cannot be undone"))
        XCTAssertTrue(try ddkpi(database, ["runs", "--format", "json"]).stdout.contains("\"historyPruned\" : true"))
        XCTAssertEqual(try ddkpi(database, ["history", "prune", "--before", "June 1"]).status, 2, "a usage error")
    }

    /// SIGKILL at any point of an undo leaves the warehouse as it was before the undo or after it.
    func testSIGKILLDuringAnUndoLeavesBeforeOrAfter() throws { try killDuringAnUndo(postgres: false) }

    /// The same on PostgreSQL: the server rolls back the transaction of a client that died.
    func testSIGKILLDuringAnUndoOnPostgreSQLLeavesBeforeOrAfter() throws {
        _ = try TestPostgres.url()
        try killDuringAnUndo(postgres: true)
    }

    private func killDuringAnUndo(postgres: Bool) throws {
        var stores = "code,name\n"
        for store in 1...40 { stores += String(format: "%02d,Store %d\n", store, store) }
        var first = "Store,Date,Net Sales,Transactions,Items\n"
        var second = first
        var day = CivilDateText(year: 2024, month: 1, day: 1)
        for index in 0..<30_000 {
            let store = String(format: "%02d", index % 40 + 1)
            first += "\(store),\(day.text),\(100 + index % 97).25,\(1 + index % 9),\(2 + index % 7)\n"
            second += "\(store),\(day.text),\(200 + index % 89).75,\(1 + index % 9),\(2 + index % 7)\n"
            if index % 40 == 39 { day.advance() }
        }
        second += "01,\(day.text),1,1,1\n"
        let storesPath = try write("stores.csv", stores)
        let firstPath = try write("sales_audit_a.csv", first)
        let secondPath = try write("sales_audit_b.csv", second)
        func prepared(_ name: String) throws -> (database: String, run: Int64) {
            let database =
                postgres ? try TestWarehouses.postgresWarehouseURL() : directory.appendingPathComponent(name).path
            for arguments in [["stores", "import", storesPath], ["ingest", firstPath], ["ingest", secondPath]] {
                XCTAssertEqual(try ddkpi(database, arguments).status, 0)
            }
            return (database, try lastRun(database))
        }
        func state(_ database: String) throws -> String {
            let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
            let rows = try warehouse.rows(
                "SELECT store_code, date, total_sales_cents, ingest_run_id FROM store_report ORDER BY date, store_code",
                columns: 4)
            let rollups = try warehouse.rows(
                "SELECT store_code, month, sales_cents FROM store_month_rollup ORDER BY month, store_code", columns: 3)
            let status = try warehouse.rows("SELECT status FROM ingest_run ORDER BY id", columns: 1)
            return "\(rows)|\(rollups)|\(status)"
        }
        let (before, run) = try prepared("before.sqlite")
        let beforeState = try state(before)
        let started = Date()
        XCTAssertEqual(try ddkpi(before, ["ingest", "--undo", "\(run)"]).status, 0)
        let duration = Date().timeIntervalSince(started)
        let afterState = try state(before)
        XCTAssertNotEqual(beforeState, afterState)
        // Most of an undo's time is its one transaction, which commits at the end: the points lie there.
        for fraction in [0.3, 0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.96, 0.99, 1.02, 1.1, 1.5] {
            let (database, run) = try prepared("killed-\(fraction).sqlite")
            let process = Process()
            process.executableURL = CommandRunner.executable
            process.arguments = ["--db", database, "ingest", "--undo", "\(run)"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(useconds_t(duration * fraction * 1_000_000))
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let now = try state(database)
            print(
                "kill -9 at \(fraction) of an undo (\(Int(duration * fraction * 1000)) ms): \(now == beforeState ? "before" : now == afterState ? "after" : "neither")"
            )
            XCTAssertTrue(
                now == beforeState || now == afterState, "killed at \(fraction): neither before nor after the undo")
            XCTAssertEqual(try ddkpi(database, ["rollups", "check"]).status, 0)
        }
    }

    private func golden(_ name: String) throws -> String {
        try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/\(name)"), encoding: .utf8)
    }

    private func postgresIfAny() throws -> [String] {
        do { return [try TestWarehouses.postgresWarehouseURL()] } catch is XCTSkip { return [] }
    }

}

/// A day as `YYYY-MM-DD` that steps forward, for generated files.
private struct CivilDateText {
    private var date: Date
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()

    init(year: Int, month: Int, day: Int) {
        date =
            Self.calendar.date(from: DateComponents(year: year, month: month, day: day))
            ?? Date(timeIntervalSince1970: 0)
    }

    var text: String {
        let parts = Self.calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    mutating func advance() { date = date.addingTimeInterval(86_400) }
}
