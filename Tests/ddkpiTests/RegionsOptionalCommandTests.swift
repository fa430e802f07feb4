import Foundation
import TestSupport
import XCTest

/// Regions optional (SPEC section 26): a directory of codes alone gives stores and the company,
/// never a `region:` scope; a status other than `active` or `closed` is refused naming both.
final class RegionsOptionalCommandTests: XCTestCase {
    private var directory: URL!
    private var database: String { directory.appendingPathComponent("w.sqlite").path }

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// Imports `stores` and two June days of sales for stores 08 and 10: 08 sells 100.25 and
    /// 200.5, 10 sells 300 and 400.
    private func prepare(stores: String) throws {
        let imported = try ddkpi(["stores", "import", try write("stores.csv", stores)])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        let sales = try write(
            "sales_audit.csv",
            "Store,Date,Net Sales,Transactions,Items\n08,2025-06-01,100.25,2,3\n08,2025-06-02,200.5,4,5\n"
                + "10,2025-06-01,300,3,3\n10,2025-06-02,400,5,6\n")
        let ingested = try ddkpi(["ingest", sales])
        XCTAssertEqual(ingested.status, 0, ingested.stderr)
    }

    /// The scope ids of a JSON report, in order.
    private func scopes(_ json: String) throws -> [String] {
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap(report["scopes"] as? [[String: Any]]).compactMap { $0["scope"] as? String }
    }

    func testADirectoryOfCodesAloneHasNoRegionScopes() throws {
        try prepare(stores: "code\n08\n10\n")
        let json = try ddkpi(["kpi", "--as-of", "2025-06-02", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(try scopes(json.stdout), ["08", "10", "ALL"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let all = try XCTUnwrap((report["scopes"] as? [[String: Any]])?.last?["periods"] as? [String: Any])
        let sales = ((all["MTD"] as? [String: Any])?["metrics"] as? [String: Any])?["totalSales"] as? [String: Any]
        XCTAssertEqual(sales?["actual"] as? Double, 100.25 + 200.5 + 300 + 400)

        let text = try ddkpi(["kpi", "--as-of", "2025-06-02"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let headings = text.stdout.split(separator: "\n").filter { $0.contains(" — as of ") }
        XCTAssertEqual(
            headings, ["08 — as of 2025-06-02", "10 — as of 2025-06-02", "All stores — as of 2025-06-02"])

        for format in ["csv", "json", "text", "html"] {
            let review = try ddkpi(["review", "--quarter", "2025Q2", "--format", format])
            XCTAssertEqual(review.status, 0, review.stderr)
            XCTAssertFalse(review.stdout.contains("region:"), format)
            XCTAssertFalse(review.stdout.contains("Region"), format)
        }

        let comp = try write("ddkpi.toml", "[comp]\nenabled = true\n")
        let comparable = try CommandRunner.ddkpi([
            "--db", database, "--config", comp, "kpi", "--as-of", "2025-06-02", "--format", "json",
        ])
        XCTAssertEqual(comparable.status, 0, comparable.stderr)
        XCTAssertEqual(try scopes(comparable.stdout), ["08", "10", "ALL", "comp:ALL"])

        let region = try ddkpi(["kpi", "--as-of", "2025-06-02", "--region", "East"])
        XCTAssertEqual(region.status, 2)
        XCTAssertTrue(
            region.stderr.contains("unknown region \"East\": the store directory gives no store a region"),
            region.stderr)
    }

    /// A store with a blank region belongs to the company only; the other's region is its own.
    func testABlankRegionLeavesTheStoreOutOfEveryRegion() throws {
        try prepare(stores: "code,name,region\n08,Natick,\n10,Framingham,East\n")
        let json = try ddkpi(["kpi", "--as-of", "2025-06-02", "--format", "json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(try scopes(json.stdout), ["08", "10", "region:East", "ALL"])
        let csv = try ddkpi(["kpi", "--as-of", "2025-06-02", "--format", "csv"])
        let east = csv.stdout.split(separator: "\n").first {
            $0.hasPrefix("region:East,MTD,") && $0.contains("totalSales")
        }
        XCTAssertEqual(east?.split(separator: ",", omittingEmptySubsequences: false)[5], "700", "store 10 alone")
        let text = try ddkpi(["kpi", "--as-of", "2025-06-02"])
        XCTAssertTrue(text.stdout.contains("08 Natick — as of 2025-06-02\n"), text.stdout)
        XCTAssertTrue(text.stdout.contains("10 Framingham (East) — as of 2025-06-02\n"), text.stdout)
    }

    func testAStatusOtherThanActiveOrClosedIsRefusedNamingBoth() throws {
        let file = try write("stores.csv", "code,status\n08,active\n10,open\n12,Closed\n")
        let result = try ddkpi(["stores", "import", file])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(
            result.stderr.contains("\"open\" is not a store status (expected active or closed)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("stores.csv"), result.stderr)
    }
}
