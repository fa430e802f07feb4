import Foundation
import TestSupport
import XCTest

/// `ddkpi headers FILE [--feed ID]` through the binary (SPEC section 26).
final class HeadersCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    func testTheSampleSalesAuditMapsEveryColumnAndWouldLoad() throws {
        let sample = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/feeds/sales_audit_2025H1.xlsx").path
        let result = try CommandRunner.ddkpi(["headers", sample])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            sales_audit_2025H1.xlsx: feed sales-audit, sheet Daily Sales, header row 4
            column  header          field
            A       Location Name   store
            B       Sales Date      date
            C       Net Sales $     totalSales
            D       Transactions    totalTransactions
            E       Units           totalItems
            F       Care Plan %     ccpPct
            G       Gross Margin %  gpPct
            would load: every required field has a column

            """)
    }

    func testAnExportLackingFieldsSaysWhatToAddAndAConfigAliasIsShown() throws {
        // SPEC section 26: without transactions and items a sales audit still loads.
        let export = try write("pos_sales_audit.csv", "Store,Date,Net Sales,Customers,Open\n08,2025-07-01,100.5,3,1\n")
        let bare = try CommandRunner.ddkpi(["headers", export])
        XCTAssertEqual(bare.status, 0, bare.stderr)
        XCTAssertTrue(
            bare.stdout.hasPrefix("pos_sales_audit.csv: feed sales-audit, sheet pos_sales_audit, header row 1\n"),
            bare.stdout)
        XCTAssertTrue(bare.stdout.contains("D       Customers  —\n"), bare.stdout)

        let config = try write("ddkpi.toml", "[aliases.sales-audit]\ntotalTransactions = [\"Customers\"]\n")
        let aliased = try CommandRunner.ddkpi(["--config", config, "headers", export])
        XCTAssertEqual(aliased.status, 0)
        XCTAssertTrue(aliased.stdout.contains("D       Customers  totalTransactions (config alias)\n"), aliased.stdout)

        let noDate = try write("pos_no_date.csv", "Store,Net Sales,Customers\n08,100.5,3\n")
        let lacking = try CommandRunner.ddkpi(["--config", config, "headers", "--feed", "sales-audit", noDate])
        XCTAssertEqual(lacking.status, 1, lacking.stderr)
        XCTAssertTrue(
            lacking.stdout.hasPrefix(
                "pos_no_date.csv: feed sales-audit, sheet pos_no_date, no header row; row 1 comes closest\n"),
            lacking.stdout)
        XCTAssertTrue(lacking.stdout.contains("missing date (built-in names: \"Date\""), lacking.stdout)
        XCTAssertTrue(
            lacking.stdout.hasSuffix("; config alias \"Customers\" matched totalTransactions\n"), lacking.stdout)

        let weekly = try write("walmart.csv", "Store,Week,Weekly_Sales\n1,2010-02-05,24924.5\n")
        let undetected = try CommandRunner.ddkpi(["headers", weekly])
        XCTAssertEqual(undetected.status, 1)
        XCTAssertTrue(undetected.stderr.contains("cannot tell which feed this is"), undetected.stderr)
        let named = try CommandRunner.ddkpi(["headers", "--feed", "sales-audit", weekly])
        XCTAssertEqual(named.status, 1)
        XCTAssertTrue(named.stdout.contains("add [aliases.sales-audit] totalSales = [\"Weekly_Sales\"]"), named.stdout)
    }
}
