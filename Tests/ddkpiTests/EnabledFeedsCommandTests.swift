import Foundation
import TestSupport
import XCTest

/// `[feeds] enabled` (SPEC section 26) on the samples: a company with sales-audit alone sees no
/// row, status line or failure for the feeds it never had.
final class EnabledFeedsCommandTests: XCTestCase {
    static let sample = IngestedOnce(fileName: "sample.sqlite", ingest: GoldenReportTests.ingestSamples(into:))

    override class func tearDown() {
        sample.remove()
        super.tearDown()
    }

    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// A config file with `text` in the test's folder.
    private func config(_ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: "ddkpi.toml", in: directory)
    }

    /// ddkpi on the sample warehouse with the config that enables sales-audit alone.
    private func salesAuditOnly(_ arguments: [String]) throws -> CommandRunner.Result {
        let file = try config("[feeds]\nenabled = [\"sales-audit\"]\n")
        return try CommandRunner.ddkpi(
            ["--db", try Self.sample.path(), "--config", file] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// The sales-audit metrics, in report order.
    private static let salesAuditMetrics = ["totalSales", "avgAds", "upt", "ccpPct", "gpPct"]

    func testStatusJudgesOnlyTheEnabledFeeds() throws {
        let result = try salesAuditOnly(["status", "--as-of", "2025-07-01"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Feed freshness as of 2025-07-01: all feeds ok")
        XCTAssertEqual(lines.filter { $0.hasPrefix("sales-audit ") }.count, 6, result.stdout)
        for feed in ["credit-apps", "birdeye-reviews", "crm-intakes", "outbound-calls", "employee-performance"] {
            XCTAssertFalse(result.stdout.contains(feed), "\(feed): \(result.stdout)")
        }

        // Sales-audit late for every store: exit 4 still, on sales-audit lines alone.
        let late = try salesAuditOnly(["status", "--as-of", "2025-07-10", "--format", "json"])
        XCTAssertEqual(late.status, 4)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(late.stdout.utf8)) as? [String: Any])
        let feeds = Set(try XCTUnwrap(json["feeds"] as? [[String: Any]]).compactMap { $0["feed"] as? String })
        XCTAssertEqual(feeds, ["sales-audit"])
    }

    func testKPIHasOnlyTheSalesAuditMetrics() throws {
        let json = try salesAuditOnly(["kpi", "--as-of", "2025-06-15", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let scopes = try XCTUnwrap(report["scopes"] as? [[String: Any]])
        XCTAssertEqual(scopes.count, 6 + 2 + 1, "six stores, two regions, the company")
        let periods = try XCTUnwrap(scopes.last?["periods"] as? [String: Any])
        XCTAssertEqual(Set(periods.keys), ["WTD", "MTD", "QTD", "YTD"])
        for (label, period) in periods {
            let metrics = try XCTUnwrap((period as? [String: Any])?["metrics"] as? [String: Any])
            XCTAssertEqual(Set(metrics.keys), Set(Self.salesAuditMetrics), label)
        }
        // The values that stay are those of the report with every feed.
        let sales = try XCTUnwrap(
            ((periods["YTD"] as? [String: Any])?["metrics"] as? [String: Any])?["totalSales"] as? [String: Any])
        let all = try CommandRunner.ddkpi(
            ["--db", try Self.sample.path(), "kpi", "--as-of", "2025-06-15", "--format", "json"])
        let full = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(all.stdout.utf8)) as? [String: Any])
        let fullSales = try XCTUnwrap(
            (((full["scopes"] as? [[String: Any]])?.last?["periods"] as? [String: Any])?["YTD"] as? [String: Any])?[
                "metrics"] as? [String: Any])
        XCTAssertEqual(sales["actual"] as? Double, (fullSales["totalSales"] as? [String: Any])?["actual"] as? Double)
        XCTAssertNotNil(fullSales["creditApps"], "without the config, every metric")

        let text = try salesAuditOnly(["kpi", "--as-of", "2025-06-15", "--store", "08"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let labels = text.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }.map(String.init)
        for label in ["Sales", "Avg", "UPT", "CCP", "GP"] { XCTAssertTrue(labels.contains(label), text.stdout) }
        for label in ["Credit apps", "Reviews", "Guest capture", "Outbound calls"] {
            XCTAssertFalse(text.stdout.contains(label), "\(label): \(text.stdout)")
        }

        let csv = try salesAuditOnly(["kpi", "--as-of", "2025-06-15", "--store", "08", "--format", "csv"])
        let metrics = Set(csv.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[4] })
        XCTAssertEqual(metrics, Set(Self.salesAuditMetrics.map { Substring($0) }))
    }

    func testReviewAndItsDocumentsHaveOnlyTheSalesAuditMetrics() throws {
        for format in ["text", "csv", "json", "html"] {
            let result = try salesAuditOnly(["review", "--quarter", "2025Q2", "--format", format])
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertTrue(result.stdout.contains(format == "text" || format == "html" ? "UPT" : "upt"), format)
            for name in ["creditApps", "Credit apps", "birdeyeReviews", "Reviews", "guestCapture", "outboundCalls"] {
                XCTAssertFalse(result.stdout.contains(name), "\(format): \(name)")
            }
        }
        let csv = try salesAuditOnly(["review", "--quarter", "2025Q2", "--store", "08", "--format", "csv"])
        XCTAssertEqual(csv.stdout.split(separator: "\n").count, 1 + 4 * 5, "header, then 3 months and Q2 × 5 metrics")

        let workbook = directory.appendingPathComponent("review.xlsx").path
        let xlsx = try salesAuditOnly(["review", "--quarter", "2025Q2", "--format", "xlsx", "--output", workbook])
        XCTAssertEqual(xlsx.status, 0, xlsx.stderr)
        let summary = try CommandRunner.ddkpi(["dump", workbook, "--sheet", "Summary"])
        XCTAssertEqual(summary.status, 0, summary.stderr)
        XCTAssertFalse(summary.stdout.contains("Credit apps"), summary.stdout)
        XCTAssertTrue(summary.stdout.contains("UPT"), summary.stdout)
    }

    /// A pack's documents and its manifest's freshness verdicts leave the other feeds out too.
    func testAPackHasOnlyTheEnabledFeeds() throws {
        let plan = try TestPaths.write(
            Array(
                "[[pack]]\nname = \"08\"\nstores = [\"08\"]\nreports = [\"review\", \"kpi\"]\nformats = [\"html\"]\n"
                    .utf8),
            named: "plan.toml", in: directory)
        let out = directory.appendingPathComponent("packs").path
        let result = try salesAuditOnly(["publish", "--plan", plan, "--out", out, "--quarter", "2025Q2"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let manifest = try String(contentsOfFile: "\(out)/08/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"feed\":\"sales-audit\""), manifest)
        for feed in ["credit-apps", "birdeye-reviews", "crm-intakes", "outbound-calls", "merch-sales"] {
            XCTAssertFalse(manifest.contains(feed), "\(feed): \(manifest)")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: "\(out)/08").filter { $0.hasSuffix(".html") }
        XCTAssertEqual(files.count, 2, "\(files)")
        for file in files {
            let page = try String(contentsOfFile: "\(out)/08/\(file)", encoding: .utf8)
            XCTAssertTrue(page.contains("UPT"), file)
            XCTAssertFalse(page.contains("Credit apps"), file)
            XCTAssertFalse(page.contains("Outbound calls"), file)
        }
    }

    func testAFileOfAFeedNotEnabledFailsNamingTheSetting() throws {
        let credit = try TestPaths.write(
            Array("Store,Date\n08,2025-07-01\n".utf8), named: "credit_apps.csv", in: directory)
        let result = try salesAuditOnly(["ingest", credit])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        XCTAssertTrue(
            result.stderr.contains(
                "credit_apps.csv: credit-apps is not one of the feeds in [feeds] enabled (sales-audit): "
                    + "add \"credit-apps\" there to load its files"), result.stderr)

        let headers = try salesAuditOnly(["headers", credit])
        XCTAssertEqual(headers.status, 1, headers.stdout + headers.stderr)
        XCTAssertTrue(
            headers.stdout.hasSuffix(
                "would load: every required field has a column\nwould not load: credit-apps is not one of the "
                    + "feeds in [feeds] enabled (sales-audit): add \"credit-apps\" there to load its files\n"),
            headers.stdout)

        // In the inbox, the file is quarantined.
        let inbox = directory.appendingPathComponent("inbox")
        let archive = directory.appendingPathComponent("archive")
        let quarantine = directory.appendingPathComponent("quarantine")
        for folder in [inbox, archive, quarantine] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.moveItem(atPath: credit, toPath: inbox.appendingPathComponent("credit_apps.csv").path)
        let cron = try salesAuditOnly([
            "ingest", "--inbox", inbox.path, "--archive", archive.path, "--quarantine", quarantine.path,
        ])
        XCTAssertEqual(cron.status, 1, cron.stdout + cron.stderr)
        let quarantined = try FileManager.default.contentsOfDirectory(atPath: quarantine.path)
        XCTAssertTrue(quarantined.contains { $0.hasPrefix("credit_apps") }, "\(quarantined)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: inbox.path), [])
    }

    func testTheSettingIsChecked() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        let unknown = try config("[feeds]\nenabled = [\"sales-audit\", \"calls\"]\n")
        let result = try CommandRunner.ddkpi(["--db", database, "--config", unknown, "status"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("feeds.enabled: expected a list of feed ids"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\"outbound-calls\""), result.stderr)
        XCTAssertTrue(result.stderr.contains("not \"calls\""), result.stderr)

        // The top-level currency and locale are read (their formatting is not this test's).
        let euros = try config("currency = \"EUR\"\nlocale = \"de-DE\"\n[feeds]\nenabled = [\"sales-audit\"]\n")
        XCTAssertEqual(
            try CommandRunner.ddkpi([
                "--db", try Self.sample.path(), "--config", euros, "status", "--as-of", "2025-07-01",
            ])
            .status, 0)
        let lower = try config("currency = \"eur\"\n")
        let refused = try CommandRunner.ddkpi(["--db", database, "--config", lower, "status"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(
            refused.stderr.contains("currency = \"eur\": expected an ISO 4217 code such as USD or EUR"), refused.stderr)

        // `sales-audit` left out is still enabled: the report has its metrics.
        let empty = try config("[feeds]\nenabled = []\n")
        let kpi = try CommandRunner.ddkpi(
            ["--db", try Self.sample.path(), "--config", empty, "kpi", "--as-of", "2025-06-15", "--format", "csv"])
        XCTAssertEqual(kpi.status, 0, kpi.stderr)
        XCTAssertTrue(kpi.stdout.contains(",totalSales,"), kpi.stdout)
        XCTAssertFalse(kpi.stdout.contains(",creditApps,"), kpi.stdout)
    }
}
