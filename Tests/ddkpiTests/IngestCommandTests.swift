import Foundation
import TestSupport
import Warehouse
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
        XCTAssertEqual(
            try CommandRunner.ddkpi([
                "stores", "import", "--db", database, samples.appendingPathComponent("reference/stores.csv").path,
            ]).status, 0)
        XCTAssertEqual(
            try CommandRunner.ddkpi([
                "goals", "import", "--db", database, samples.appendingPathComponent("reference/goals.xlsx").path,
            ]).status, 0)
    }

    func testSampleFeedsIngestOkAndASecondRunChangesNothing() throws {
        try onEachBackend {
            try importReference()
            let first = try CommandRunner.ddkpi([
                "ingest", "--db", database, samples.appendingPathComponent("feeds").path,
            ])
            XCTAssertEqual(first.status, 0, first.stderr)
            let lines = first.stdout.split(separator: "\n")
            XCTAssertEqual(lines.count, 15)
            XCTAssertTrue(lines.dropLast().allSatisfy { $0.hasPrefix("ok ") }, first.stdout)
            XCTAssertTrue(
                first.stdout.contains(
                    "sales_audit_2025H1_resend_corrected.csv  run=15  feed=sales-audit read=180 inserted=0 updated=2 unchanged=178"
                ), first.stdout)
            XCTAssertTrue(
                first.stderr.contains("sales_audit_2025H1.xlsx: 3 alarms (see ddkpi check --run 14)"), first.stderr)
            XCTAssertEqual(
                lines.last,
                "14 files: 14 ok, 0 failed, 0 duplicate; 36927 rows read, 22439 inserted, 2 updated, 0 rejected")

            let second = try CommandRunner.ddkpi([
                "ingest", "--db", database, samples.appendingPathComponent("feeds").path,
            ])
            XCTAssertEqual(second.status, 0)
            XCTAssertTrue(
                second.stdout.hasSuffix(
                    "14 files: 0 ok, 0 failed, 14 duplicate; 0 rows read, 0 inserted, 0 updated, 0 rejected\n"),
                second.stdout)

            let runs = try CommandRunner.ddkpi(["runs", "--db", database, "--limit", "30", "--format", "json"])
            let decoded = try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]]
            XCTAssertEqual(decoded?.count, 30)
            XCTAssertEqual(decoded?.filter { $0["status"] as? String == "ok" }.count, 16)
            let salesRun = decoded?.first {
                ($0["path"] as? String)?.hasSuffix("sales_audit_2024.xlsx") == true && $0["status"] as? String == "ok"
            }
            XCTAssertEqual(salesRun?["inserted"] as? Int, 2196)
            XCTAssertEqual(salesRun?["skipped"] as? Int, 23)
            XCTAssertEqual((salesRun?["sha256"] as? String)?.count, 64)
        }
    }

    /// A dry run reports what the real run would: `ok`, exit 0, nothing written (the audit's N6).
    func testADryRunOfAGoodFileSaysOkAndWritesNothing() throws {
        try onEachBackend {
            try importReference()
            let file = directory.appendingPathComponent("SalesAudit_good.csv")
            try "Store,Date,Net Sales,Transactions,Items\n08,2025-06-01,100.00,1,1\n".write(
                to: file, atomically: true, encoding: .utf8)
            let dry = try ddkpi(["ingest", "--dry-run", file.path])
            XCTAssertEqual(dry.status, 0, dry.stderr)
            XCTAssertTrue(dry.stdout.hasPrefix("ok "), dry.stdout)
            XCTAssertTrue(dry.stdout.contains("(dry run: nothing written)"), dry.stdout)
            let json = try ddkpi(["ingest", "--dry-run", "--log-format", "json", file.path])
            XCTAssertEqual(json.status, 0, json.stderr)
            XCTAssertTrue(json.stderr.contains("\"status\":\"ok\""), json.stderr)
            XCTAssertFalse(json.stderr.contains("\"status\":\"failed\""), json.stderr)
            let real = try ddkpi(["ingest", file.path])
            XCTAssertEqual(real.status, 0, real.stderr)
            XCTAssertTrue(real.stdout.hasPrefix("ok "), "the dry run left no ledger row behind: \(real.stdout)")
        }
    }

    /// A FIFO named on the command line and a NaN lock timeout are usage errors; an archive
    /// whose parent is missing is refused, not made; a link to nothing in the inbox is said
    /// once and quarantined (the audit's N13).
    func testPathsAndOptionsThatCannotWorkAreRefused() throws {
        try importReference()
        let fifo = directory.appendingPathComponent("fifo.csv").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let named = try ddkpi(["ingest", "--feed", "sales-audit", fifo])
        XCTAssertEqual(named.status, 2)
        XCTAssertTrue(named.stderr.contains("fifo.csv: skipped, a FIFO and not a regular file"), named.stderr)
        let nan = try ddkpi(["--lock-timeout", "nan", "ingest", fifo])
        XCTAssertEqual(nan.status, 2)
        XCTAssertTrue(nan.stderr.contains("--lock-timeout"), nan.stderr)

        let inbox = directory.appendingPathComponent("in")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: inbox.appendingPathComponent("SalesAudit_link.csv").path, withDestinationPath: "/nonexistent/x.csv")
        let typo = directory.appendingPathComponent("typo/deep/ar").path
        let quarantine = directory.appendingPathComponent("qu").path
        let refused = try ddkpi(["ingest", "--inbox", inbox.path, "--archive", typo, "--quarantine", quarantine])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("--archive \(typo): its parent folder"), refused.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("typo").path))

        let archive = directory.appendingPathComponent("ar").path
        let first = try ddkpi(["ingest", "--inbox", inbox.path, "--archive", archive, "--quarantine", quarantine])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stderr.contains("SalesAudit_link.csv: skipped, a link to nothing"), first.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inbox.path), [])
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: quarantine).sorted(),
            ["SalesAudit_link.csv", "SalesAudit_link.csv.reason.txt"])
        let second = try ddkpi(["ingest", "--inbox", inbox.path, "--archive", archive, "--quarantine", quarantine])
        XCTAssertEqual(second.stderr, "", "said once")
    }

    func testFailedFileExitsOneAndTheRestCommits() throws {
        try onEachBackend {
            try importReference()
            let bad = directory.appendingPathComponent("sales_audit_bad.csv")
            try "Store,Date,Net Sales,Transactions,Items\n99,2025-07-14,1,1,1\n".write(
                to: bad, atomically: true, encoding: .utf8)
            let good = samples.appendingPathComponent("feeds/sales_audit_2025H1_resend_corrected.csv").path
            let rejects = directory.appendingPathComponent("rejects.csv").path
            let result = try ddkpi(["ingest", bad.path, good, "--rejects", rejects])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(result.stdout.hasPrefix("failed    sales_audit_bad.csv"), result.stdout)
            XCTAssertTrue(result.stdout.contains("ok        sales_audit_2025H1_resend_corrected.csv"), result.stdout)
            XCTAssertEqual(
                try String(contentsOfFile: rejects, encoding: .utf8),
                "file,sheet,row,column,header,value,reason\nsales_audit_bad.csv,sales_audit_bad,2,A,Store,99,is not a known store code (99)\n"
            )
        }
    }

    func testUndetectableFileNamesItsHeaders() throws {
        try onEachBackend {
            try importReference()
            let odd = directory.appendingPathComponent("export.csv")
            try "Store,Date,Amount\n08,2025-07-14,3\n".write(to: odd, atomically: true, encoding: .utf8)
            let result = try ddkpi(["ingest", odd.path])
            XCTAssertEqual(result.status, 1)
            XCTAssertTrue(
                result.stderr.contains("cannot tell which feed this is; headers seen: Store, Date, Amount"),
                result.stderr)
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
            let result = try ddkpi([
                "ingest", "--inbox", inbox.path, "--archive", archive.path, "--quarantine", quarantine.path,
            ])
            XCTAssertEqual(result.status, 1, "one file failed")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inbox.path), [])
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: archive.path), ["credit_applications_2024.csv"])
            XCTAssertEqual(
                try FileManager.default.contentsOfDirectory(atPath: quarantine.path).sorted(),
                ["mystery.csv", "mystery.csv.reason.txt"])
            let reason = try String(
                contentsOf: quarantine.appendingPathComponent("mystery.csv.reason.txt"), encoding: .utf8)
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
        let result = try ddkpi([
            "ingest", "--lock-timeout", "0", "--inbox", inbox.path, "--archive", inbox.path + "-a", "--quarantine",
            inbox.path + "-q",
        ])
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
                "--config", config.path, "--db", database, "kpi", "--as-of", "2025-07-16", "--store", "08", "--format",
                "csv",
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

/// Issue 20, defect 2: a failure outside the files never quarantines good files.
final class OutsideFailureCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func folders() throws -> [String] {
        let paths = ["inbox", "archive", "quarantine"].map { directory.appendingPathComponent($0).path }
        for path in paths { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        return paths
    }

    private func count(_ folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
    }

    /// The PostgreSQL server stopped under a cron run: the run stops with exit 2, nothing is
    /// quarantined, the files not ingested wait in the inbox, and the next run takes them.
    func testPostgreSQLLostDuringACronRunLeavesTheRestInTheInbox() throws {
        let server = try ThrowawayPostgres()
        let stores = try TestPaths.write(
            Array("code,name\n08,Natick\n10,Framingham\n".utf8), named: "stores.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", server.url, "stores", "import", stores]).status, 0)
        let (inbox, archive, quarantine) = try { () throws -> (String, String, String) in
            let paths = try folders()
            return (paths[0], paths[1], paths[2])
        }()
        let files = 30
        for file in 0..<files {
            var text = "Store,Date,Net Sales,Transactions,Items\n"
            for month in 1...12 {
                for day in 1...28 {
                    for store in ["08", "10"] {
                        text += String(format: "%@,%04d-%02d-%02d,%d.25,1,1\n", store, 2000 + file, month, day, day)
                    }
                }
            }
            try TestPaths.write(
                Array(text.utf8), named: String(format: "sales_audit_%02d.csv", file), in: URL(fileURLWithPath: inbox))
        }
        let cron = ["--db", server.url, "ingest", "--inbox", inbox, "--archive", archive, "--quarantine", quarantine]
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = cron
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        while process.isRunning && count(archive) < 3 { usleep(5_000) }
        try server.stopImmediately()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 2, stderr)
        XCTAssertTrue(stderr.contains("the files not ingested stay for the next run"), stderr)
        XCTAssertEqual(count(quarantine), 0, "no good file is quarantined")
        XCTAssertGreaterThan(count(inbox), 0)
        XCTAssertEqual(count(inbox) + count(archive), files)

        try server.start()
        let rerun = try CommandRunner.ddkpi(cron)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual([count(inbox), count(archive), count(quarantine)], [0, files, 0])
    }

    /// A write command waits for the ingest lock up to --lock-timeout, then exits 3, leaving
    /// the inbox as it was; plain ingest takes the lock too.
    func testAHeldLockMakesAnIngestWaitThenExitThree() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        let stores = try TestPaths.write(Array("code,name\n08,Natick\n".utf8), named: "stores.csv", in: directory)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        let paths = try folders()
        let sales = try TestPaths.write(
            Array("Store,Date,Net Sales,Transactions,Items\n08,2025-01-02,1,1,1\n".utf8), named: "sales_audit.csv",
            in: URL(fileURLWithPath: paths[0]))
        let holder = try Warehouse(path: database)
        let lock = try XCTUnwrap(try holder.tryIngestLock())
        let started = Date()
        let plain = try CommandRunner.ddkpi(["--db", database, "ingest", "--lock-timeout", "0.5", sales])
        XCTAssertEqual(plain.status, 3, plain.stderr)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.5, "it waited")
        let cron = try CommandRunner.ddkpi([
            "--db", database, "ingest", "--lock-timeout", "0.2", "--inbox", paths[0], "--archive", paths[1],
            "--quarantine", paths[2],
        ])
        XCTAssertEqual(cron.status, 3, cron.stderr)
        XCTAssertEqual([count(paths[0]), count(paths[1]), count(paths[2])], [1, 0, 0])
        lock.release()
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "ingest", sales]).status, 0, "free again")
    }
}
