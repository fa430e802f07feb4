import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// End-to-end ingestion of `SampleFeeds/` with the built binary, each test on a SQLite and a
/// PostgreSQL warehouse (but the file lock's, which is SQLite's own).
final class IngestCommandTests: XCTestCase {
    private var base: URL!
    /// The test's folder (one per backend).
    private var directory: URL!
    private var database = ""
    private let samples = TestPaths.packageRoot.appendingPathComponent("SampleFeeds")

    override func setUpWithError() throws {
        base = try TestPaths.temporaryDirectory()
        directory = base
        database = directory.appendingPathComponent("warehouse.sqlite").path
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: base) }

    /// Runs `body` once per backend, `database` naming a new warehouse of it and `directory` a
    /// folder of its own.
    private func onEachBackend(_ body: () throws -> Void) throws {
        try TestWarehouses.forEachBackend(in: base) { location in
            directory = base.appendingPathComponent(location.backendName)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            database = location.argument
            try body()
        }
    }

    private func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments)
    }

    private func importReference() throws {
        XCTAssertEqual(try CommandRunner.ddkpi(["stores", "import", "--db", database, samples.appendingPathComponent("reference/stores.csv").path]).status, 0)
        XCTAssertEqual(try CommandRunner.ddkpi(["goals", "import", "--db", database, samples.appendingPathComponent("reference/goals.xlsx").path]).status, 0)
    }

    func testSampleFeedsIngestOkAndASecondRunChangesNothing() throws {
        try onEachBackend {
            try importReference()
            let first = try CommandRunner.ddkpi(["ingest", "--db", database, samples.appendingPathComponent("feeds").path])
            XCTAssertEqual(first.status, 0, first.stderr)
            let lines = first.stdout.split(separator: "\n")
            XCTAssertEqual(lines.count, 15)
            XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasPrefix("ok ") }, first.stdout)
            XCTAssertTrue(first.stdout.contains("sales_audit_2025H1_resend_corrected.csv  feed=sales-audit read=180 inserted=0 updated=2 unchanged=178"), first.stdout)
            XCTAssertEqual(lines.last, "14 files: 14 ok, 0 failed, 0 duplicate; 36927 rows read, 22439 inserted, 2 updated, 0 rejected")

            let second = try CommandRunner.ddkpi(["ingest", "--db", database, samples.appendingPathComponent("feeds").path])
            XCTAssertEqual(second.status, 0)
            XCTAssertTrue(second.stdout.hasSuffix("14 files: 0 ok, 0 failed, 14 duplicate; 0 rows read, 0 inserted, 0 updated, 0 rejected\n"), second.stdout)

            let runs = try CommandRunner.ddkpi(["runs", "--db", database, "--limit", "30", "--format", "json"])
            let decoded = try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]]
            XCTAssertEqual(decoded?.count, 30)
            XCTAssertEqual(decoded?.filter { $0["status"] as? String == "ok" }.count, 16)
            let salesRun = decoded?.first { ($0["path"] as? String)?.hasSuffix("sales_audit_2024.xlsx") == true && $0["status"] as? String == "ok" }
            XCTAssertEqual(salesRun?["inserted"] as? Int, 2196)
            XCTAssertEqual(salesRun?["skipped"] as? Int, 23)
            XCTAssertEqual((salesRun?["sha256"] as? String)?.count, 64)
        }
    }

    func testFailedFileExitsOneAndTheRestCommits() throws {
        try onEachBackend {
            try importReference()
            let bad = directory.appendingPathComponent("sales_audit_bad.csv")
            try "Store,Date,Net Sales,Transactions,Items\n99,2025-07-14,1,1,1\n".write(to: bad, atomically: true, encoding: .utf8)
            let good = samples.appendingPathComponent("feeds/sales_audit_2025H1_resend_corrected.csv").path
            let rejects = directory.appendingPathComponent("rejects.csv").path
            let result = try ddkpi(["ingest", bad.path, good, "--rejects", rejects])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stdout.hasPrefix("failed    sales_audit_bad.csv"), result.stdout)
            XCTAssertTrue(result.stdout.contains("ok        sales_audit_2025H1_resend_corrected.csv"), result.stdout)
            XCTAssertEqual(
                try String(contentsOfFile: rejects, encoding: .utf8),
                "file,sheet,row,column,header,value,reason\nsales_audit_bad.csv,sales_audit_bad,2,A,Store,99,is not a known store code (99)\n")
        }
    }

    func testUndetectableFileNamesItsHeaders() throws {
        try onEachBackend {
            try importReference()
            let odd = directory.appendingPathComponent("export.csv")
            try "Store,Date,Amount\n08,2025-07-14,3\n".write(to: odd, atomically: true, encoding: .utf8)
            let result = try ddkpi(["ingest", odd.path])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stderr.contains("cannot tell which feed this is; headers seen: Store, Date, Amount"), result.stderr)
        }
    }

    func testInboxModeMovesFilesAndQuarantinesWithAReason() throws {
        try onEachBackend {
            try importReference()
            let inbox = directory.appendingPathComponent("inbox")
            let archive = directory.appendingPathComponent("archive")
            let quarantine = directory.appendingPathComponent("quarantine")
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent("feeds/credit_applications_2024.csv"),
                to: inbox.appendingPathComponent("credit_applications_2024.csv"))
            try "not,a,feed\n".write(to: inbox.appendingPathComponent("mystery.csv"), atomically: true, encoding: .utf8)
            let result = try ddkpi(["ingest", "--inbox", inbox.path, "--archive", archive.path, "--quarantine", quarantine.path])
            XCTAssertEqual(result.status, 1, "one file failed")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inbox.path), [])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: archive.path), ["credit_applications_2024.csv"])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: quarantine.path).sorted(), ["mystery.csv", "mystery.csv.reason.txt"])
            let reason = try String(contentsOf: quarantine.appendingPathComponent("mystery.csv.reason.txt"), encoding: .utf8)
            XCTAssertTrue(reason.contains("cannot tell which feed this is"), reason)
        }
    }

    func testSecondConcurrentInboxRunExitsThree() throws {
        let lockPath = database + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        defer { close(descriptor) }
        let inbox = directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let result = try ddkpi(["ingest", "--inbox", inbox.path, "--archive", inbox.path + "-a", "--quarantine", inbox.path + "-q"])
        XCTAssertEqual(result.status, 3)
        XCTAssertTrue(result.stderr.contains("another ingest holds"), result.stderr)
    }

    func testConfigFileAddsAliasesPatternsAndDayFirstDates() throws {
        try onEachBackend {
            try importReference()
            let config = directory.appendingPathComponent("ddkpi.toml")
            try """
                week_start = "sunday"
                day_first_dates = true
                reject_threshold = 0
                [aliases.credit-apps]
                date = ["Submitted On"]
                [file_patterns]
                credit-apps = ["applications_export"]
                """.write(to: config, atomically: true, encoding: .utf8)
            let feed = directory.appendingPathComponent("applications_export_0715.csv")
            try "Store,Submitted On\n08,15/07/2025\n08,16/07/2025\n".write(to: feed, atomically: true, encoding: .utf8)
            let result = try CommandRunner.ddkpi(["--config", config.path, "--db", database, "ingest", feed.path])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains("feed=credit-apps read=2 inserted=2"), result.stdout)
            let kpi = try CommandRunner.ddkpi([
                "--config", config.path, "--db", database, "kpi", "--as-of", "2025-07-16", "--store", "08", "--format", "csv",
            ])
            XCTAssertTrue(kpi.stdout.contains("08,WTD,2025-07-13,2025-07-16,creditApps,2,"), kpi.stdout)
        }
    }

    func testUsageErrorsExitTwo() throws {
        try onEachBackend {
            XCTAssertEqual(try ddkpi(["ingest"]).status, 2)
            XCTAssertEqual(try ddkpi(["ingest", "--inbox", "x"]).status, 2)
            XCTAssertEqual(try ddkpi(["ingest", "--feed", "nope", "x.csv"]).status, 2)
            XCTAssertEqual(try ddkpi(["ingest", "/no/such/file.csv"]).status, 2)
            let config = directory.appendingPathComponent("bad.toml")
            try "week_start = \"someday\"\n".write(to: config, atomically: true, encoding: .utf8)
            let badConfig = try ddkpi(["--config", config.path, "runs"])
            XCTAssertEqual(badConfig.status, 2)
            XCTAssertTrue(badConfig.stderr.contains("week_start: expected a weekday name"), badConfig.stderr)
        }
    }
}
