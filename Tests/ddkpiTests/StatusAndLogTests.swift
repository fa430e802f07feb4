import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi status` (SPEC section 15) and JSON-lines logs for cron.
final class StatusAndLogTests: XCTestCase {
    private var directory: URL!
    private var database: String { directory.appendingPathComponent("w.sqlite").path }

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments)
    }

    private func prepare() throws {
        XCTAssertEqual(
            try ddkpi([
                "stores", "import",
                try write(
                    "stores.csv",
                    "code,name,region,status\n08,Natick,East,active\n10,Framingham,East,active\n12,Closed,East,closed\n"
                ),
            ]).status, 0)
        let sales = try write(
            "sales_audit.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-06-30,1,1,1\n10,2025-06-27,1,1,1\n")
        let calls = try write("calls.csv", "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n08,2025-06-16,1,1,1,1,1,1,1\n")
        let credit = try write("credit.csv", "Store,Date\n10,2025-06-30\n")
        let employees = try write("employees.csv", "Store,Month,Emp #,Net Sales,Trans,Items\n08,2025-06,7,10,1,1\n")
        XCTAssertEqual(try ddkpi(["ingest", sales, calls, credit, employees]).status, 0)
    }

    func testVerdictsPerActiveStoreAndPerEventFeed() throws {
        try prepare()
        let result = try ddkpi(["status", "--as-of", "2025-07-02", "--format", "json"])
        XCTAssertEqual(result.status, 4, "some feeds are late or missing")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["ok"] as? Bool, false)
        let rows = try XCTUnwrap(json["feeds"] as? [[String: Any]])
        func row(_ feed: String, _ scope: String) -> [String: Any]? {
            rows.first { $0["feed"] as? String == feed && $0["scope"] as? String == scope }
        }
        XCTAssertEqual(row("sales-audit", "08")?["verdict"] as? String, "ok")
        XCTAssertEqual(row("sales-audit", "08")?["daysSince"] as? Int, 2)
        XCTAssertEqual(row("sales-audit", "10")?["verdict"] as? String, "late", "5 days > 2")
        XCTAssertNil(row("sales-audit", "12"), "closed stores are not judged")
        XCTAssertEqual(row("outbound-calls", "ALL")?["lastDate"] as? String, "2025-06-22", "week start + 6")
        XCTAssertEqual(row("outbound-calls", "ALL")?["verdict"] as? String, "late", "10 days > 9")
        XCTAssertEqual(row("credit-apps", "ALL")?["verdict"] as? String, "ok")
        XCTAssertEqual(row("crm-intakes", "ALL")?["verdict"] as? String, "missing")
        XCTAssertTrue(row("crm-intakes", "ALL")?["lastDate"] is NSNull)
        XCTAssertEqual(
            row("employee-performance", "08")?["lastDate"] as? String, "2025-06-30",
            "a monthly row counts to its month's end")
        XCTAssertEqual(row("employee-performance", "10")?["verdict"] as? String, "missing")
        XCTAssertEqual(rows.count, 2 * 3 + 4, "three per-store feeds × two active stores, four event feeds")

        let config = try write("ddkpi.toml", "[freshness]\nsales-audit = 5\noutbound-calls = 10\ncrm-intakes = 400\n")
        let relaxed = try CommandRunner.ddkpi(["--db", database, "--config", config, "status", "--as-of", "2025-07-02"])
        XCTAssertTrue(
            relaxed.stdout.contains("sales-audit             10 2025-06-27          5          5      ok\n"),
            relaxed.stdout)
        XCTAssertEqual(relaxed.status, 4, "crm-intakes never had a row: missing whatever the threshold")
        let bad = try write("bad.toml", "[freshness]\nsales = 2\n")
        XCTAssertEqual(
            try CommandRunner.ddkpi(["--db", database, "--config", bad, "status"]).status, 2, "2 wins over 4")
    }

    func testJSONLogsCarryCountsAndReasonsButNoRowValues() throws {
        try prepare()
        let secret = "Zyxwvut Secretname"
        let file = try write(
            "sales_audit_rejects.csv",
            "Store,Date,Net Sales,Transactions,Items\n\(secret),2025-07-01,1,1,1\n08,2025-07-01,12.3x4,1,1\n08,2025-07-02,5,1,1\n"
        )
        let result = try ddkpi(["ingest", "--log-format", "json", file])
        XCTAssertEqual(result.status, 1, "2 of 3 rows rejected: over the threshold")
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, result.stderr)
        let events = try lines.map {
            try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        XCTAssertEqual(events.map { $0["event"] as? String }, ["ingest.file", "ingest.summary"])
        XCTAssertEqual(events[0]["level"] as? String, "error")
        XCTAssertEqual(events[0]["feed"] as? String, "sales-audit")
        XCTAssertEqual(events[0]["rejected"] as? Int, 2)
        XCTAssertEqual(events[0]["read"] as? Int, 3)
        XCTAssertNotNil(events[0]["ts"] as? String)
        XCTAssertEqual(
            events[0]["error"] as? String, "2 of 3 rows rejected (66.7%), over the 5.0% threshold; nothing was written")
        for value in [secret, "Zyxwvut", "12.3x4"] {
            XCTAssertFalse(result.stderr.contains(value), "the log quotes a row value: \(value)")
        }
        let status = try ddkpi(["status", "--as-of", "2025-07-02", "--log-format", "json"])
        let statusEvents = status.stderr.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(statusEvents.last?["event"] as? String, "status.done")
        XCTAssertTrue(
            statusEvents.contains {
                $0["event"] as? String == "status.missing" && $0["feed"] as? String == "crm-intakes"
            })
    }

    // MARK: - Issue 20, defect 3: personal data and control characters in logs

    /// Every line of `stderr` as a JSON object (fails on a line that is not one).
    private func events(_ stderr: String) throws -> [[String: Any]] {
        try stderr.split(separator: "\n").map { line in
            try XCTUnwrap(
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)"
            )
        }
    }

    /// The one `fatal` event a failed command wrote, checked for its shape.
    private func fatal(_ result: CommandRunner.Result, file: StaticString = #filePath, line: UInt = #line) throws
        -> String
    {
        let logged = try events(result.stderr)
        XCTAssertEqual(logged.count, 1, result.stderr, file: file, line: line)
        let event = try XCTUnwrap(logged.first, file: file, line: line)
        XCTAssertNotNil(event["ts"] as? String, file: file, line: line)
        XCTAssertEqual(event["level"] as? String, "error", file: file, line: line)
        XCTAssertEqual(event["event"] as? String, "fatal", file: file, line: line)
        return try XCTUnwrap(event["error"] as? String, file: file, line: line)
    }

    func testJSONLogCountsTheColumnsOfAFileWithoutAHeaderRowButNeverQuotesThem() throws {
        try prepare()
        let export = try write("export.csv", "Yara Patel,0001,2025-07-01,3\nOmar Haddad,0002,2025-07-01,4\n")
        let crm = try write("crm_intakes_0701.csv", "Yara Patel,yara.patel@example.com,08,2025-07-01\n")
        let result = try ddkpi(["ingest", "--log-format", "json", export, crm])
        XCTAssertEqual(result.status, 1)
        let files = try events(result.stderr).filter { $0["event"] as? String == "ingest.file" }
        XCTAssertEqual(files.count, 2, result.stderr)
        XCTAssertEqual(
            files.first?["error"] as? String,
            "export.csv: cannot tell which feed this is; saw a row of 4 columns. Name it with --feed (sales-audit, credit-apps, birdeye-reviews, crm-intakes, outbound-calls, employee-performance, merch-sales)"
        )
        let crmError = try XCTUnwrap(files.last?["error"] as? String)
        XCTAssertTrue(
            crmError.hasPrefix(
                "crm_intakes_0701.csv: no crm-intakes header row in the first 30 rows of any sheet: expected columns for "
            ), crmError)
        XCTAssertTrue(crmError.hasSuffix("; saw a row of 4 columns"), crmError)
        for value in ["Yara", "Patel", "0001", "Omar", "example.com"] {
            XCTAssertFalse(result.stderr.contains(value), "the log quotes a cell: \(value)")
        }
        // At a terminal a person still sees what the file holds.
        let text = try ddkpi(["ingest", export, crm])
        XCTAssertTrue(
            text.stderr.contains("cannot tell which feed this is; headers seen: Yara Patel, 0001, 2025-07-01, 3."),
            text.stderr)
        XCTAssertTrue(
            text.stderr.contains("headers seen: Yara Patel, yara.patel@example.com, 08, 2025-07-01"), text.stderr)
    }

    func testFatalErrorsAreJSONObjectsUnderJSONLogs() throws {
        let badConfig = try write("bad.toml", "week_start = \"someday\"\n")
        let config = try CommandRunner.ddkpi([
            "--db", database, "--config", badConfig, "status", "--log-format", "json",
        ])
        XCTAssertEqual(config.status, 2)
        XCTAssertTrue(try fatal(config).contains("week_start: expected a weekday name"), config.stderr)

        let missing = try ddkpi(["status", "--log-format=json"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(try fatal(missing).contains(database), missing.stderr)

        let usage = try ddkpi(["ingest", "--log-format", "json", "--inbox", "x"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertEqual(
            try fatal(usage), "--inbox, --archive and --quarantine go together", "no usage lines in a JSON log")

        let unreachable = try CommandRunner.ddkpi([
            "--db", "postgresql://ddkpi@127.0.0.1:1/nowhere?connect_timeout=2", "ingest", "--log-format", "json",
            try write("credit.csv", "Store,Date\n"),
        ])
        XCTAssertEqual(unreachable.status, 2)
        XCTAssertTrue(
            try fatal(unreachable).hasPrefix("cannot connect to postgresql://ddkpi@127.0.0.1:1/nowhere"),
            unreachable.stderr)

        try prepare()
        let descriptor = open(database + ".lock", O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        defer { close(descriptor) }
        let held = try ddkpi([
            "--lock-timeout", "0", "ingest", "--log-format", "json",
            try write("credit.csv", "Store,Date\n10,2025-07-01\n"),
        ])
        XCTAssertEqual(held.status, 3)
        XCTAssertTrue(try fatal(held).contains("another ingest h"), held.stderr)

        // Text logs are as they were: our prefix, then argument-parser's usage lines.
        let text = try ddkpi(["ingest", "--inbox", "x"])
        XCTAssertTrue(
            text.stderr.hasPrefix(
                "ddkpi: error: --inbox, --archive and --quarantine go together\nUsage: ddkpi ingest "), text.stderr)
    }

    func testMessagesFromTheServerAreOneLineInBothLogFormats() throws {
        let url = "postgresql://ddkpi@127.0.0.1:1/nowhere?connect_timeout=2"
        let text = try CommandRunner.ddkpi(["--db", url, "status"])
        XCTAssertEqual(text.status, 2)
        XCTAssertEqual(
            text.stderr.split(separator: "\n", omittingEmptySubsequences: false).count, 2, "one line: \(text.stderr)")
        XCTAssertTrue(text.stderr.contains("Connection refused; Is the server running"), text.stderr)
        let json = try CommandRunner.ddkpi(["--db", url, "status", "--log-format", "json"])
        let error = try fatal(json)
        XCTAssertFalse(error.contains("\n") || error.contains("\t"), error)
        XCTAssertTrue(error.contains("Connection refused; Is the server running"), error)
    }

    func testControlCharactersInFileNamesAreEscapedInStatusLinesAndLogs() throws {
        try prepare()
        let forged = "sales_audit_0701.csv\nok        forged.csv  feed=sales-audit read=1\u{1B}[2K\r\u{7F}"
        let file = try write(forged, "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,5,1,1\n")
        let result = try ddkpi(["ingest", file])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "one status line and the summary: \(result.stdout)")
        XCTAssertEqual(
            lines.first.map(String.init),
            "ok        sales_audit_0701.csv\\nok        forged.csv  feed=sales-audit read=1\\x1b[2K\\r\\x7f  run=6  feed=sales-audit read=1 inserted=1 updated=0 unchanged=0 skipped=0 rejected=0"
        )

        let failing = try write("export\n\u{1B}]0;title\u{07}.csv", "a,b\n")
        let failed = try ddkpi(["ingest", failing])
        XCTAssertEqual(failed.status, 1)
        XCTAssertFalse(failed.stderr.contains("\u{1B}") || failed.stderr.contains("\u{07}"), failed.stderr)
        XCTAssertEqual(failed.stderr.split(separator: "\n").count, 1, failed.stderr)
        XCTAssertTrue(
            failed.stderr.contains("export\\n\\x1b]0;title\\x07.csv: cannot tell which feed this is"), failed.stderr)
        XCTAssertTrue(
            failed.stdout.hasPrefix("failed    export\\n\\x1b]0;title\\x07.csv  run=7  feed=?"), failed.stdout)

        let json = try ddkpi(["ingest", "--log-format", "json", "--force", failing])
        let logged = try events(json.stderr)
        XCTAssertEqual(logged.count, 2, json.stderr)
        let path = try XCTUnwrap(logged.first?["file"] as? String)
        XCTAssertTrue(path.hasSuffix("export\\n\\x1b]0;title\\x07.csv"), path)
        XCTAssertFalse((logged.first?["error"] as? String ?? "").contains("\u{1B}"))

        // The ledger keeps the path as it is; `runs` shows it escaped.
        let runs = try ddkpi(["runs"])
        XCTAssertFalse(runs.stdout.contains("\u{1B}") || runs.stdout.contains("\r"), runs.stdout)
        XCTAssertTrue(runs.stdout.contains("export\\n\\x1b]0;title\\x07.csv"), runs.stdout)
    }

    func testControlCharactersFromCellsNeverReachTheTerminal() throws {
        XCTAssertEqual(
            try ddkpi([
                "stores", "import",
                try write("stores.csv", "code,name,region,status\n08,Nat\u{1B}[31mick,East,active\n"),
            ]).status, 0)
        let sales = try write(
            "sales_audit.csv",
            "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,5,1,1\n08,2025-07-02,\u{1B}[2J\u{0}5,1,1\n"
                + String(repeating: "08,2025-07-03,5,1,1\n", count: 30))
        let result = try ddkpi(["ingest", sales])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("ddkpi: warning: reject: sales_audit.csv"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\\x1b[2J\\x005"), result.stderr)
        XCTAssertFalse(result.stderr.contains("\u{1B}") || result.stderr.contains("\u{0}"), result.stderr)
        let kpi = try ddkpi(["kpi", "--as-of", "2025-07-03", "--store", "08"])
        XCTAssertEqual(kpi.status, 0, kpi.stderr)
        XCTAssertTrue(kpi.stdout.hasPrefix("08 Nat\\x1b[31mick (East) — as of 2025-07-03\n"), kpi.stdout)
        XCTAssertFalse(kpi.stdout.contains("\u{1B}"), kpi.stdout)
    }

    func testAPasswordWithAtSignsColonsAndSlashesNeverShows() throws {
        for password in ["p@ss:w@rd", "Ab3/xY+z@9"] {
            let url = "postgresql://ddkpi:\(password)@127.0.0.1:1/nowhere?connect_timeout=2"
            for format in ["text", "json"] {
                let result = try CommandRunner.ddkpi(["--db", url, "status", "--log-format", format])
                XCTAssertEqual(result.status, 2, result.stderr)
                XCTAssertTrue(
                    result.stderr.contains("cannot connect to postgresql://ddkpi:***@127.0.0.1:1/nowhere"),
                    result.stderr)
                XCTAssertTrue(
                    result.stderr.contains("Connection refused"), "libpq went to the host as typed: \(result.stderr)")
                for fragment in [password, "ss:w", "w@rd", "rd@", "Ab3", "xY+z", "@9"] {
                    XCTAssertFalse(result.stderr.contains(fragment), "\(fragment) shows in: \(result.stderr)")
                }
            }
        }
    }
}
