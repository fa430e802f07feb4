import Foundation
import GRDB
import TestSupport
import XCTest

/// Issue 43 on the samples: a review read mid-quarter compares like with like (SPEC section 22).
final class RunningReviewCommandTests: XCTestCase {
    /// The samples with the sales-audit rows after 2025-06-15 left out, as on the night of 06-15
    /// (the other feeds keep their later rows).
    static let midJune = IngestedOnce(fileName: "mid-june.sqlite") { database in
        try GoldenReportTests.ingestSamples(into: database)
        let queue = try DatabaseQueue(path: database)
        try queue.write { try $0.execute(sql: "DELETE FROM store_report WHERE date > '2025-06-15'") }
        let rebuilt = try CommandRunner.ddkpi(["--db", database, "rollups", "rebuild"])
        XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
    }

    /// The samples as they are, with data through 2025-06-30.
    static let whole = IngestedOnce(fileName: "sample.sqlite", ingest: GoldenReportTests.ingestSamples(into:))

    override class func tearDown() {
        midJune.remove()
        whole.remove()
        super.tearDown()
    }

    private func run(_ database: String, _ arguments: [String]) throws -> String {
        let result = try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0, "\(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout
    }

    private func json(_ database: String, _ arguments: [String]) throws -> [String: Any] {
        let text = try run(database, arguments + ["--format", "json"])
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// A period's object of one scope.
    private func period(_ report: [String: Any], _ scope: String, _ label: String) throws -> [String: Any] {
        let scopes = try XCTUnwrap(report["scopes"] as? [[String: Any]])
        let object = try XCTUnwrap(scopes.first { $0["scope"] as? String == scope })
        return try XCTUnwrap((object["periods"] as? [String: Any])?[label] as? [String: Any])
    }

    private func metric(_ period: [String: Any], _ key: String) throws -> [String: Any] {
        try XCTUnwrap((period["metrics"] as? [String: Any])?[key] as? [String: Any])
    }

    func testMidQuarterEastReviewReadsTheTruthOfKPI() throws {
        let database = try Self.midJune.path()
        let review = try json(database, ["review", "--quarter", "2025Q2", "--region", "East"])
        let kpi = try json(database, ["kpi", "--as-of", "2025-06-15", "--region", "East"])
        XCTAssertEqual(review["asOf"] as? String, "2025-06-15")
        let quarter = try period(review, "region:East", "2025Q2")
        XCTAssertEqual(quarter["end"] as? String, "2025-06-15")
        XCTAssertEqual(quarter["lyEnd"] as? String, "2024-06-15")
        XCTAssertEqual(quarter["running"] as? Bool, true)
        XCTAssertEqual(try period(review, "region:East", "2025-05")["running"] as? Bool, false)
        XCTAssertEqual(try period(review, "region:East", "2025-06")["end"] as? String, "2025-06-15")
        let qtd = try period(kpi, "region:East", "QTD")
        for key in ["totalSales", "avgAds", "upt", "ccpPct", "gpPct", "creditApps", "guestCapture", "outboundCalls"] {
            let cut = try metric(quarter, key)
            let toDate = try metric(qtd, key)
            for field in ["actual", "target", "pctToTarget", "ly", "pctVsLy"] {
                XCTAssertEqual(
                    cut[field] as? NSNumber, toDate[field] as? NSNumber, "\(key).\(field) as kpi's QTD, to the digit")
            }
            let full = cut["full"] as? [String: Any]
            XCTAssertEqual(full?.keys.sorted(), (toDate["full"] as? [String: Any])?.keys.sorted(), key)
            for (field, value) in full ?? [:] {
                XCTAssertEqual(
                    "\(value)", "\((toDate["full"] as? [String: Any])?[field] ?? "")", "\(key).full.\(field)")
            }
        }
        let sales = try metric(quarter, "totalSales")
        let pctToTarget = try XCTUnwrap(sales["pctToTarget"] as? Double)
        let pctVsLY = try XCTUnwrap(sales["pctVsLy"] as? Double)
        // kpi's QTD on the samples (Reports/kpi-2025-06-15.json): ahead of target and of LY.
        XCTAssertEqual(pctToTarget, 0.104_992_145_906_092_3, accuracy: 1e-12)
        XCTAssertEqual(pctVsLY, 0.062_293_065_229_535_7, accuracy: 1e-12)
        XCTAssertEqual(sales["actual"] as? Double, 2_135_673.57)

        let full = try XCTUnwrap(sales["full"] as? [String: Any])
        let actual = try XCTUnwrap(sales["actual"] as? Double)
        let target = try XCTUnwrap(full["target"] as? Double)
        XCTAssertEqual(full["end"] as? String, "2025-06-30")
        XCTAssertEqual(full["remainingDays"] as? Int, 15)
        let needed = try XCTUnwrap(full["needed"] as? Double)
        XCTAssertEqual(needed, max(0, target - actual), accuracy: 0.005)
        XCTAssertEqual(try XCTUnwrap(full["neededPerDay"] as? Double), needed / 15, accuracy: 0.005)
        XCTAssertNotNil(full["projected"] as? Double)
        XCTAssertNotNil(full["projectedPctToTarget"] as? Double)
        XCTAssertNil(try metric(quarter, "avgAds")["full"], "ratio metrics have no full")

        let text = try run(database, ["review", "--quarter", "2025Q2", "--region", "East"])
        XCTAssertTrue(text.contains("2025Q2 to 06-15"), text)
        XCTAssertTrue(text.contains("2025-06 to 06-15"), text)
        XCTAssertTrue(text.contains("$2,135,674 $1,932,750  ▲ +10.5%"), text)
        XCTAssertTrue(text.contains("▲ +6.2%"), text)
        XCTAssertFalse(text.contains("▼ −7.4%"), text)
        let goal = try XCTUnwrap(text.split(separator: "\n").last { $0.hasPrefix("Sales 2025Q2 to 06-15: ") })
        XCTAssertTrue(goal.contains(" in 15 days: ") || goal.contains("Target reached: "), String(goal))
    }

    /// `--as-of` on a warehouse whose feeds all run later gives the same review as the warehouse
    /// of that night: every feed is cut at the as-of date.
    func testAsOfCutsEveryFeed() throws {
        let cut = try Self.midJune.path()
        let later = try Self.whole.path()
        for format in ["json", "csv", "text"] {
            XCTAssertEqual(
                try run(later, ["review", "--quarter", "2025Q2", "--as-of", "2025-06-15", "--format", format]),
                try run(cut, ["review", "--quarter", "2025Q2", "--format", format]), format)
        }
        let csv = try run(later, ["review", "--quarter", "2025Q2", "--as-of", "2025-06-15", "--format", "csv"])
        let lines = csv.split(separator: "\n")
        XCTAssertEqual(
            lines.first,
            "scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly,end,full_target,projected,needed,needed_per_day"
        )
        let row = try XCTUnwrap(lines.first { $0.hasPrefix("region:East,2025Q2,totalSales,") }).split(
            separator: ",", omittingEmptySubsequences: false)
        XCTAssertEqual(row.count, 13)
        XCTAssertEqual(row[8], "2025-06-15")
        XCTAssertFalse(row[9].isEmpty, "full target")
        let ratio = try XCTUnwrap(lines.first { $0.hasPrefix("region:East,2025Q2,avgAds,") })
        XCTAssertTrue(ratio.hasSuffix(",2025-06-15,,,,"), String(ratio))
    }

    func testAsOfOutsideTheQuarterAndQuarterWithoutDataExitTwo() throws {
        let database = try Self.whole.path()
        let outside = try CommandRunner.ddkpi([
            "--db", database, "review", "--quarter", "2025Q2", "--as-of", "2025-07-01",
        ])
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.stderr.contains("--as-of 2025-07-01 is not in 2025Q2"), outside.stderr)
        let empty = try CommandRunner.ddkpi(["--db", database, "review", "--quarter", "2025Q3"])
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.stderr.contains("no data for 2025Q3: data through 2025-06-30"), empty.stderr)
    }
}
