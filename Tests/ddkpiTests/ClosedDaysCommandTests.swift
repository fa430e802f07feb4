import Foundation
import TestSupport
import Warehouse
import XCTest

/// A POS export with an `Open` column (SPEC section 26), Rossmann's layout: a day it marks
/// closed is stored as closed, excused by `zero-day` and `outlier`, and shown by `explain`,
/// while an open day with no sales still raises its alarm.
final class ClosedDaysCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func ddkpi(_ database: String, _ arguments: [String]) throws -> CommandRunner.Result {
        let config = try TestPaths.write(
            Array("[aliases.sales-audit]\ntotalTransactions = [\"Customers\"]\n".utf8), named: "ddkpi.toml",
            in: directory)
        return try CommandRunner.ddkpi(
            ["--db", database, "--config", config] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// Stores 8 and 10 from Monday 2025-05-05 to Sunday 2025-07-13, every day open with sales,
    /// but store 8 closed on 2025-07-04 (`Open` 0, no sales) and store 10 open without sales on
    /// 2025-07-11.
    private func export() throws -> String {
        var lines = ["Store,DayOfWeek,Date,Sales,Customers,Open,Promo"]
        let first = try XCTUnwrap(ISO8601DateFormatter().date(from: "2025-05-05T00:00:00Z"))
        for offset in 0..<70 {
            let date = first.addingTimeInterval(Double(offset) * 86_400)
            let day = String(ISO8601DateFormatter().string(from: date).prefix(10))
            for store in [8, 10] {
                let closed = store == 8 && day == "2025-07-04"
                let sales =
                    closed || (store == 10 && day == "2025-07-11") ? 0 : 5_000 + (offset * 37 + store * 11) % 400
                let customers = sales == 0 ? 0 : sales / 10
                lines.append("\(store),\(offset % 7 + 1),\(day),\(sales),\(customers),\(closed ? 0 : 1),0")
            }
        }
        return try TestPaths.write(Array((lines.joined(separator: "\n") + "\n").utf8), named: "pos.csv", in: directory)
    }

    func testADayTheExportMarksClosedIsStoredExcusedAndExplainedOnEachBackend() throws {
        let export = try export()
        for location in try TestWarehouses.locations(in: directory) {
            print("backend: \(location.backendName)")
            let database = location.argument
            XCTAssertEqual(
                try ddkpi(database, ["stores", "import", TestPaths.fixture("feeds/stores_small.csv")]).status, 0)
            let ingest = try ddkpi(database, ["ingest", export])
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
            let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
            XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report WHERE closed = 1"), 1)
            XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report WHERE closed = 0"), 139)

            let check = try ddkpi(database, ["check", "--since", "2025-07-01", "--format", "json"])
            XCTAssertEqual(check.status, 4, check.stdout + check.stderr)
            XCTAssertTrue(
                check.stdout.contains(
                    "\"kind\":\"zero-day\",\"feed\":\"sales-audit\",\"store\":\"10\",\"date\":\"2025-07-11\""),
                check.stdout)
            XCTAssertFalse(
                check.stdout.contains("\"date\":\"2025-07-04\""), "the closed day is excused: \(check.stdout)")

            let explain = try ddkpi(
                database,
                ["explain", "--metric", "totalSales", "--store", "08", "--as-of", "2025-07-06", "--period", "WTD"])
            XCTAssertEqual(explain.status, 0, explain.stderr)
            let closedRow =
                "  store_report 08 2025-07-04: salesCents 0 ($0.00), closed (the export's Open column) (pos.csv"
            XCTAssertTrue(explain.stdout.contains(closedRow), explain.stdout)
        }
    }
}
