import Foundation
import GRDB
import PostgresClient
import TestSupport
import Warehouse
import XCTest

/// Issue 43, part 2: `publish --as-of D` cuts every document of a pack at D (SPEC section 19),
/// on both backends.
final class PublishAsOfTests: XCTestCase {
    /// The as-of day the packs are cut at, mid-quarter in the samples (data through 2025-06-30).
    private static let asOf = "2025-06-15"

    /// Every feed table of the samples and the column its rows are dated by.
    private static let feedTables = [
        ("store_report", "date"), ("credit_report", "date"), ("crm_intake_report", "date"),
        ("birdeye_report", "week_start"), ("outbound_call_report", "week_start"), ("employee_report", "date"),
        ("merch_report", "date"),
    ]

    private static let plan = """
        [[pack]]
        name = "company"
        all = true
        reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
        formats = ["html", "xlsx"]

        [[pack]]
        name = "east"
        region = "East"
        reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
        formats = ["html", "xlsx"]

        """

    /// The same plan published `--as-of 2025-06-15` from the samples (data through 06-30) and from
    /// the samples with every row after 06-15 deleted gives byte-identical documents and manifests, and the
    /// review in them is the running quarter to 06-15.
    func testAPackCutAtItsAsOfDayIsTheSameWithoutTheLaterData() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let planPath = directory.appendingPathComponent("plan.toml").path
        try Self.plan.write(toFile: planPath, atomically: true, encoding: .utf8)
        try TestWarehouses.forEachBackend(in: directory) { location in
            let database = location.argument
            try GoldenReportTests.ingestSamples(into: database)
            let later = directory.appendingPathComponent("later-\(location.backendName)").path
            try publish(database, plan: planPath, to: later)

            try deleteRows(after: Self.asOf, in: location)
            let rebuilt = try CommandRunner.ddkpi(["--db", database, "rollups", "rebuild"])
            XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
            let cut = directory.appendingPathComponent("cut-\(location.backendName)").path
            try publish(database, plan: planPath, to: cut)

            for pack in ["company", "east"] {
                let files = try FileManager.default.contentsOfDirectory(atPath: "\(later)/\(pack)").sorted()
                XCTAssertEqual(files, try FileManager.default.contentsOfDirectory(atPath: "\(cut)/\(pack)").sorted())
                XCTAssertEqual(files.count, 11, "five documents in two formats and the manifest: \(files)")
                for file in files {
                    XCTAssertEqual(
                        FileManager.default.contents(atPath: "\(later)/\(pack)/\(file)"),
                        FileManager.default.contents(atPath: "\(cut)/\(pack)/\(file)"),
                        "\(location.backendName): \(pack)/\(file) is the same without the rows after \(Self.asOf)")
                }
            }
            let review = try String(contentsOfFile: "\(later)/east/review-2025Q2.html", encoding: .utf8)
            XCTAssertTrue(review.contains("2025Q2 to 06-15"), "the review runs to the as-of day")
            XCTAssertTrue(review.contains("data through 2025-06-15"), "its footer says the as-of day")
            XCTAssertFalse(review.contains("2025-06-30"), "no day after the as-of day")
            XCTAssertTrue(
                review.contains("Pace</dt><dd class=\"up-text\">▲ +10.5%"),
                "East's sales pace to 06-15 (it read +30.8 % with June's later days counted)")
            let merch = try String(contentsOfFile: "\(later)/east/merch-vendor-2025Q2.html", encoding: .utf8)
            XCTAssertTrue(merch.contains("2025-04-01 to 2025-06-15"), "merch covers the quarter to the as-of day")
            let manifest = try String(contentsOfFile: "\(later)/east/manifest.json", encoding: .utf8)
            XCTAssertTrue(manifest.contains("\"asOf\":\"2025-06-15\""), manifest)
            XCTAssertFalse(manifest.contains("\"lastDate\":\"2025-06-2"), "freshness stops at the as-of day")
            XCTAssertFalse(manifest.contains("\"lastDate\":\"2025-06-30\""), "freshness stops at the as-of day")
        }
    }

    /// `merch --quarter` runs to the latest sales-audit day as the review does, even when merch
    /// rows run later, against the same days a year earlier (SPEC section 22).
    func testMerchOfARunningQuarterIsCutAtTheLatestSalesDay() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        try DatabaseQueue(path: database).write { database in
            try database.execute(sql: "DELETE FROM store_report WHERE date > ?", arguments: [Self.asOf])
        }
        let merch = { (options: [String]) in
            try CommandRunner.ddkpi(
                [
                    "--db", database, "merch", "--quarter", "2025Q2", "--by", "vendor", "--region", "East", "--format",
                    "json",
                ]
                    + options)
        }
        let running = try merch([])
        XCTAssertEqual(running.status, 0, running.stderr)
        XCTAssertTrue(
            running.stdout.contains(
                "\"start\":\"2025-04-01\",\"end\":\"2025-06-15\",\"lyStart\":\"2024-04-01\",\"lyEnd\":\"2024-06-15\""),
            running.stdout)
        XCTAssertEqual(running.stdout, try merch(["--as-of", Self.asOf]).stdout)
        let whole = try merch(["--as-of", "2025-06-30"])
        XCTAssertTrue(
            whole.stdout.contains("\"end\":\"2025-06-30\",\"lyStart\":\"2024-04-01\",\"lyEnd\":\"2024-06-30\""))
        let refused = try merch(["--as-of", "2025-07-01"])
        XCTAssertEqual(refused.status, 2)
        XCTAssertTrue(refused.stderr.contains("--as-of 2025-07-01 is not in 2025Q2"), refused.stderr)
    }

    private func publish(_ database: String, plan: String, to out: String) throws {
        let result = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", plan, "--out", out, "--as-of", Self.asOf,
        ])
        XCTAssertTrue([0, 4].contains(result.status), result.stderr)
    }

    /// Deletes every feed row dated after `day` (a weekly row by its week start), as if the
    /// warehouse had been read on the night of `day`.
    private func deleteRows(after day: String, in location: DatabaseLocation) throws {
        switch location {
        case .sqlite(let path):
            let queue = try DatabaseQueue(path: path)
            try queue.write { database in
                for (table, column) in Self.feedTables {
                    try database.execute(sql: "DELETE FROM \(table) WHERE \(column) > ?", arguments: [day])
                }
            }
        case .postgres(let url):
            let connection = try PostgresConnection(url: url)
            for (table, column) in Self.feedTables {
                _ = try connection.execute("DELETE FROM \(table) WHERE \(column) > $1", [day])
            }
        }
    }
}
