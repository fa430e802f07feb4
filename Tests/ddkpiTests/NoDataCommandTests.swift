import Foundation
import TestSupport
import XCTest

/// Issue 43, part 3 on the samples (data through 2025-06-30): no data is not zero (SPEC section 7).
final class NoDataCommandTests: XCTestCase {
    static let sample = IngestedOnce(fileName: "sample.sqlite", ingest: GoldenReportTests.ingestSamples(into:))

    override class func tearDown() {
        sample.remove()
        super.tearDown()
    }

    private func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", try Self.sample.path()] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// A quarter after the data, or a kpi whose year starts after it, exits 2 naming the period
    /// and the latest sales-audit day.
    func testAReportWithoutAnyPeriodWithDataExitsTwo() throws {
        let review = try ddkpi(["review", "--quarter", "2025Q3"])
        XCTAssertEqual(review.status, 2)
        XCTAssertEqual(review.stdout, "")
        XCTAssertTrue(review.stderr.contains("no data for 2025Q3: data through 2025-06-30"), review.stderr)

        let running = try ddkpi(["review", "--quarter", "2025Q4", "--as-of", "2025-12-31"])
        XCTAssertEqual(running.status, 2)
        XCTAssertTrue(running.stderr.contains("no data for 2025Q4: data through 2025-06-30"), running.stderr)

        let kpi = try ddkpi(["kpi", "--as-of", "2026-01-15"])
        XCTAssertEqual(kpi.status, 2)
        XCTAssertTrue(kpi.stderr.contains("no data as of 2026-01-15: data through 2025-06-30"), kpi.stderr)
    }

    /// `kpi --as-of 2025-09-30`: WTD, MTD and QTD start after the sales-audit data and read `no
    /// data` (`null` in JSON), never `$0 ▼ −100.0%`; YTD is counted through 06-30, where the data
    /// ends, and says so beside its actual.
    func testPeriodsAfterTheDataReadNoData() throws {
        let text = try ddkpi(["kpi", "--as-of", "2025-09-30", "--store", "08"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let sales = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("Sales ") })
        XCTAssertFalse(sales.contains("$0"), String(sales))
        XCTAssertEqual(sales.components(separatedBy: "no data").count - 1, 3, String(sales))
        XCTAssertTrue(sales.contains("$1,712,804 to 06-30   ▼ −1.2%"), String(sales))

        let json = try ddkpi(["kpi", "--as-of", "2025-09-30", "--store", "08", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let periods = try XCTUnwrap((report["scopes"] as? [[String: Any]])?.first?["periods"] as? [String: Any])
        func totalSales(_ period: String) throws -> [String: Any] {
            let metrics = try XCTUnwrap((periods[period] as? [String: Any])?["metrics"] as? [String: Any])
            return try XCTUnwrap(metrics["totalSales"] as? [String: Any])
        }
        let quarter = try totalSales("QTD")
        XCTAssertTrue(quarter["actual"] is NSNull)
        XCTAssertTrue(quarter["pctToTarget"] is NSNull)
        XCTAssertEqual(quarter["target"] as? Double, 855_000, "the target stays")
        let year = try totalSales("YTD")
        XCTAssertEqual(year["actual"] as? Double, 1_712_803.8)
        XCTAssertEqual(year["target"] as? Double, 1_733_500, "the target of January to June")
        XCTAssertEqual(year["dataThrough"] as? String, "2025-06-30")
        let full = try XCTUnwrap(year["full"] as? [String: Any])
        XCTAssertEqual(full["remainingDays"] as? Int, 184, "the days after 06-30")
    }

    /// Without `--as-of`, kpi reads as of the latest sales-audit day of its stores and says so.
    func testKPIWithoutAsOfUsesTheLatestSalesDay() throws {
        let text = try ddkpi(["kpi", "--store", "08"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.hasPrefix("08 Natick (East) — as of 2025-06-30, the latest data\n"), text.stdout)
        let asked = try ddkpi(["kpi", "--store", "08", "--as-of", "2025-06-30"])
        XCTAssertTrue(asked.stdout.hasPrefix("08 Natick (East) — as of 2025-06-30\n"), asked.stdout)
        XCTAssertEqual(
            text.stdout.split(separator: "\n").dropFirst(), asked.stdout.split(separator: "\n").dropFirst(),
            "the same figures as the day asked for")
        let html = try ddkpi(["kpi", "--store", "08", "--format", "html"])
        XCTAssertTrue(html.stdout.contains("week, month, quarter and year to date, as of 2025-06-30, the latest data"))
    }
}
