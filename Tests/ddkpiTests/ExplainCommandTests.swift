import Foundation
import TestSupport
import XCTest

/// `ddkpi explain` through the binary (SPEC section 17), on the samples.
final class ExplainCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func ddkpi(_ database: String, _ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
    }

    func testAnExplainedValueIsTheReviewsValueWithItsRowsAndTarget() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let arguments = ["explain", "--metric", "avgAds", "--store", "08", "--quarter", "2025Q2", "--month", "2025-05"]

        let text = try ddkpi(database, arguments + ["--limit", "2"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Avg sale (avgAds), 08 Natick (East), 2025-05 2025-05-01 to 2025-05-31: $324.03")
        XCTAssertEqual(lines[1], "Target $330.00: ▼ −1.8% to target")
        XCTAssertEqual(lines[2], "Formula: avgAds = Σ salesCents ÷ (Σ transactions × 100)")
        XCTAssertEqual(lines[3], "  salesCents = 33,536,621 ($335,366.21)")
        XCTAssertEqual(lines[4], "  transactions = 1,035")
        XCTAssertTrue(
            lines.contains(
                "  store_report 08 2025-05-01: salesCents 1,336,687 ($13,366.87), transactions 38 (sales_audit_2025H1.xlsx, sheet Daily Sales, row 725, run 14)"
            ), text.stdout)
        XCTAssertTrue(
            lines.contains("  … and 29 more rows (31 in all; --limit N or --format json for more)"), text.stdout)
        XCTAssertTrue(lines.contains("  08 2025-05 global (31 days): $330.00 × weight 1,035"), text.stdout)

        let json = try ddkpi(database, arguments + ["--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let review = try ddkpi(database, ["review", "--quarter", "2025Q2", "--store", "08", "--format", "json"])
        XCTAssertTrue(review.stdout.contains("\"2025-05\""), review.stdout)
        XCTAssertTrue(
            json.stdout.contains("\"value\":324.0253236714976,")
                && review.stdout.contains("\"avgAds\":{\"actual\":324.0253236714976,"),
            "explain prints the review's value byte for byte")
        XCTAssertEqual((document["rows"] as? [Any])?.count, 31)
        XCTAssertEqual(document["rollupMonths"] as? [String], ["2025-05"])
        let target = try XCTUnwrap(document["target"] as? [String: Any])
        XCTAssertEqual(target["value"] as? Double, 330)
    }

    func testAMetricIsNamedByItsTableLabelAndShownAgainstTargetWithPace() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let period = ["--store", "08", "--as-of", "2025-06-15", "--period", "QTD"]

        for name in ["Sales", "sales", "totalSales"] {
            let text = try ddkpi(database, ["explain", "--metric", name, "--limit", "0"] + period)
            XCTAssertEqual(text.status, 0, text.stderr)
            let lines = text.stdout.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "Sales (totalSales), 08 Natick (East), QTD 2025-04-01 to 2025-06-15: $777,302")
            XCTAssertEqual(lines[1], "Target $746,000: ▲ +4.2% to target; pace ▲ +4.2% (projected $930,991)")
        }
        let kpi = try ddkpi(database, ["kpi", "--as-of", "2025-06-15", "--store", "08"])
        XCTAssertTrue(
            kpi.stdout.contains("$777,302   ▲ +4.2%  ▲ +4.2%"), "the same cells as kpi's table: \(kpi.stdout)")

        let json = try ddkpi(database, ["explain", "--metric", "Sales", "--format", "json"] + period)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["projected"] as? Double, 930_990.92)
        XCTAssertEqual(try XCTUnwrap(document["pctToTarget"] as? Double), 777_301.88 / 746_000 - 1, accuracy: 1e-12)
        XCTAssertEqual(document["projectedPctToTarget"] as? Double, document["pctToTarget"] as? Double)

        let ratio = try ddkpi(
            database, ["explain", "--metric", "ccp %", "--all", "--quarter", "2025Q2", "--limit", "0"])
        XCTAssertEqual(ratio.status, 0, ratio.stderr)
        XCTAssertTrue(ratio.stdout.hasPrefix("CCP % (ccpPct), All stores, 2025Q2"), ratio.stdout)
    }

    func testUsageErrorsExitTwo() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        for (arguments, message) in [
            (
                ["--metric", "salez", "--all", "--as-of", "2025-06-15", "--period", "MTD"],
                "unknown metric \"salez\"; known metrics: totalSales (Sales), avgAds (Avg sale)"
            ),
            (
                ["--metric", "upt", "--store", "08", "--all", "--as-of", "2025-06-15", "--period", "MTD"],
                "exactly one of"
            ),
            (
                ["--metric", "upt", "--store", "08", "--store", "12", "--as-of", "2025-06-15", "--period", "MTD"],
                "explain explains one scope"
            ),
            (["--metric", "upt", "--all", "--quarter", "2025Q2", "--month", "2025-07"], "expected a month of 2025Q2"),
            (["--metric", "upt", "--all", "--as-of", "2025-06-15"], "give --as-of D with --period P"),
        ] {
            let result = try ddkpi(database, ["explain"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
    }
}
