import Foundation
import TestSupport
import Warehouse
import XCTest

/// A sales audit without transactions or items (SPEC section 26) through the binary, on each
/// backend: a POS export of store, date, sales and customers, loaded unedited with one alias,
/// whose unknown items are never a 0 in a report, a ratio, a rollup, an undo or a check.
final class OptionalMeasuresTests: XCTestCase {
    private var directory: URL!
    private var config: String!

    /// The export: `Store,DayOfWeek,Date,Sales,Customers,Open,Promo`, stores 8 and 10, July 1–14 2025.
    private static let export = TestPaths.fixture("feeds/pos_daily_customers_no_items.csv")

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        config = try write("ddkpi.toml", "[aliases.sales-audit]\ntotalTransactions = [\"Customers\"]\n")
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func ddkpi(_ database: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> CommandRunner.Result
    {
        try CommandRunner.ddkpi(
            ["--db", database, "--config", config] + arguments,
            environment: ["NO_COLOR": "1"].merging(environment) { $1 })
    }

    /// A warehouse per backend with the two stores and the export loaded.
    private func loaded(_ body: (String) throws -> Void) throws {
        for location in try TestWarehouses.locations(in: directory) {
            print("backend: \(location.backendName)")
            let database = location.argument
            let stores = TestPaths.fixture("feeds/stores_small.csv")
            XCTAssertEqual(try ddkpi(database, ["stores", "import", stores]).status, 0)
            let ingest = try ddkpi(database, ["ingest", Self.export])
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
            XCTAssertTrue(ingest.stdout.contains("read=28 inserted=28"), ingest.stdout)
            try body(database)
        }
    }

    /// Σ sales (whole dollars) and Σ customers of store `store` (as the export spells it) over
    /// `first...last`, read straight from the export.
    private static func exportSums(store: String, from first: String, through last: String) throws -> (
        sales: Int, customers: Int
    ) {
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n").dropFirst()
        var sums = (sales: 0, customers: 0)
        for line in lines {
            let cells = line.split(separator: ",").map(String.init)
            guard cells[0] == store, cells[2] >= first, cells[2] <= last else { continue }
            sums.sales += try XCTUnwrap(Int(cells[3]))
            sums.customers += try XCTUnwrap(Int(cells[4]))
        }
        return sums
    }

    /// The `metrics` of one scope and period of `kpi --format json`.
    private func kpiMetrics(_ database: String, asOf: String, scope: String = "08", period: String = "MTD") throws
        -> [String: [String: Any]]
    {
        let result = try ddkpi(database, ["kpi", "--as-of", asOf, "--format", "json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let scopes = try XCTUnwrap(document["scopes"] as? [[String: Any]])
        let found = try XCTUnwrap(scopes.first { $0["scope"] as? String == scope })
        let periods = try XCTUnwrap(found["periods"] as? [String: Any])
        let values = try XCTUnwrap(periods[period] as? [String: Any])
        return try XCTUnwrap(values["metrics"] as? [String: [String: Any]])
    }

    func testAPOSExportWithCustomersAndNoItemsLoadsUneditedAndUPTIsUnknownOnEachBackend() throws {
        let sums = try Self.exportSums(store: "8", from: "2025-07-01", through: "2025-07-14")
        try loaded { database in
            let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
            XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report WHERE total_items IS NULL"), 28)
            XCTAssertEqual(try warehouse.integer("SELECT count(total_transactions) FROM store_report"), 28)
            XCTAssertEqual(try warehouse.integer("SELECT count(upt) FROM store_report"), 0, "no UPT over unknown items")

            let metrics = try kpiMetrics(database, asOf: "2025-07-14")
            XCTAssertEqual(metrics["totalSales"]?["actual"] as? Double, Double(sums.sales))
            XCTAssertEqual(
                try XCTUnwrap(metrics["avgAds"]?["actual"] as? Double), Double(sums.sales) / Double(sums.customers),
                accuracy: 1e-12)
            XCTAssertTrue(metrics["upt"]?["actual"] is NSNull, "UPT is unknown, not 0: \(metrics["upt"] ?? [:])")

            let text = try ddkpi(database, ["kpi", "--as-of", "2025-07-14", "--store", "08"])
            let upt = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("UPT ") })
            XCTAssertFalse(upt.contains("0.00"), String(upt))
            XCTAssertEqual(upt.split(separator: " ").dropFirst().filter { $0 != "—" }, [], String(upt))
            let csv = try ddkpi(database, ["kpi", "--as-of", "2025-07-14", "--format", "csv"])
            XCTAssertTrue(csv.stdout.contains("\n08,MTD,2025-07-01,2025-07-14,upt,,,,,,,\n"), csv.stdout)
            let html = try ddkpi(database, ["review", "--quarter", "2025Q3", "--store", "08", "--format", "html"])
            XCTAssertTrue(html.stdout.contains("<th scope=\"row\">UPT</th><td>—</td>"), html.stdout)

            let explain = try ddkpi(
                database, ["explain", "--metric", "upt", "--store", "08", "--as-of", "2025-07-14", "--period", "MTD"])
            XCTAssertEqual(explain.status, 0, explain.stderr)
            XCTAssertTrue(explain.stdout.contains("\n  items unknown (no row reports transactions and items)\n"))
            XCTAssertTrue(
                explain.stdout.contains(
                    "  store_report 08 2025-07-01: items unknown (pos_daily_customers_no_items.csv"),
                explain.stdout)
            XCTAssertEqual(try ddkpi(database, ["rollups", "check"]).status, 0)
        }
    }

    /// One file with items and one without: UPT over the rows that report both, the average
    /// sale over every row (all report transactions), the same whether rollups serve or not.
    func testAMixOfFilesWithAndWithoutItemsGivesUPTOverTheRowsThatReportBoth() throws {
        let sums = try Self.exportSums(store: "8", from: "2025-07-01", through: "2025-07-14")
        let withItems = try write(
            "sales_audit_0716.csv",
            "Store,Date,Net Sales,Transactions,Items\n08,2025-07-15,5400.00,560,1310\n08,2025-07-16,5900.00,610,1420\n"
                + "10,2025-07-15,6100.00,640,1500\n")
        try loaded { database in
            let ingest = try ddkpi(database, ["ingest", withItems])
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
            XCTAssertFalse(ingest.stderr.contains("alarm"), ingest.stderr)
            let metrics = try kpiMetrics(database, asOf: "2025-07-16")
            XCTAssertEqual(try XCTUnwrap(metrics["upt"]?["actual"] as? Double), 2_730.0 / 1_170.0, accuracy: 1e-12)
            XCTAssertEqual(
                try XCTUnwrap(metrics["avgAds"]?["actual"] as? Double),
                Double(sums.sales + 11_300) / Double(sums.customers + 1_170), accuracy: 1e-12)
            XCTAssertEqual(metrics["totalSales"]?["actual"] as? Double, Double(sums.sales + 11_300))

            let region = try kpiMetrics(database, asOf: "2025-07-16", scope: "ALL")
            XCTAssertEqual(try XCTUnwrap(region["upt"]?["actual"] as? Double), 4_230.0 / 1_810.0, accuracy: 1e-12)

            let arguments = ["kpi", "--as-of", "2025-07-16", "--format", "json"]
            XCTAssertEqual(
                try ddkpi(database, arguments).stdout,
                try ddkpi(database, arguments, environment: ["DDKPI_BYPASS_ROLLUPS": "1"]).stdout,
                "the rollups give what the feed tables give")
            XCTAssertEqual(try ddkpi(database, ["rollups", "check"]).status, 0)

            let explain = try ddkpi(
                database, ["explain", "--metric", "upt", "--store", "08", "--as-of", "2025-07-16", "--period", "MTD"])
            XCTAssertTrue(explain.stdout.contains("\n  items = 2,730\n  transactions = 1,170\n"), explain.stdout)
            XCTAssertTrue(explain.stdout.contains("  store_report 08 2025-07-15: items 1,310, transactions 560 ("))
            XCTAssertTrue(explain.stdout.contains("  store_report 08 2025-07-14: items unknown ("), explain.stdout)
        }
    }

    /// A run that gave a day its items is undone: the items are unknown again (NULL, not 0),
    /// and loading it again and undoing it again does the same.
    func testUndoingARunThatReplacedUnknownItemsMakesThemUnknownAgain() throws {
        let correction = try write(
            "sales_audit_correction.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,5830,565,1200\n")
        try loaded { database in
            let itemsOfTheDay = "SELECT total_items FROM store_report WHERE store_code = '08' AND date = '2025-07-01'"
            let before = try ddkpi(database, ["kpi", "--as-of", "2025-07-14", "--format", "json"]).stdout
            for round in 1...2 {
                let ingest = try ddkpi(database, ["ingest", "--force", correction])
                XCTAssertEqual(ingest.status, 0, ingest.stderr)
                XCTAssertTrue(ingest.stdout.contains("updated=1"), ingest.stdout)
                let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
                XCTAssertEqual(try warehouse.rows(itemsOfTheDay, columns: 1), [["1200"]])
                let upt = try XCTUnwrap(try kpiMetrics(database, asOf: "2025-07-14")["upt"]?["actual"] as? Double)
                XCTAssertEqual(upt, 1200.0 / 565.0, accuracy: 1e-12)
                let run = try XCTUnwrap(try warehouse.integer("SELECT max(id) FROM ingest_run"))

                let undo = try ddkpi(database, ["ingest", "--undo", "\(run)"])
                XCTAssertEqual(undo.status, 0, "round \(round): \(undo.stderr)")
                XCTAssertEqual(try warehouse.rows(itemsOfTheDay, columns: 1), [[nil]], "round \(round): NULL again")
                XCTAssertEqual(
                    try ddkpi(database, ["kpi", "--as-of", "2025-07-14", "--format", "json"]).stdout, before,
                    "round \(round)")
                XCTAssertEqual(try ddkpi(database, ["rollups", "check"]).status, 0)
            }
        }
    }

    /// Weeks of days with no items and no transactions column raise no alarm about them: the
    /// checks never read an unknown count as 0 (SPEC section 26).
    func testTheChecksRaiseNoAlarmOverUnknownCounts() throws {
        var text = "Store,Date,Sales\n"
        let first = try XCTUnwrap(CivilDateText.days(from: "2025-04-07", count: 70))
        for (index, day) in first.enumerated() {
            for (store, base) in [("08", 5_000), ("10", 6_000)] { text += "\(store),\(day),\(base + index % 9 * 37)\n" }
        }
        let sales = try write("sales_audit_spring.csv", text)
        for location in try TestWarehouses.locations(in: directory, name: "checks") {
            print("backend: \(location.backendName)")
            let database = location.argument
            XCTAssertEqual(
                try ddkpi(database, ["stores", "import", TestPaths.fixture("feeds/stores_small.csv")]).status, 0)
            let ingest = try ddkpi(database, ["ingest", sales])
            XCTAssertEqual(ingest.status, 0, ingest.stderr + ingest.stdout)
            let check = try ddkpi(database, ["check", "--as-of", "2025-06-15", "--format", "json"])
            XCTAssertEqual(check.status, 0, check.stdout)
            XCTAssertFalse(check.stdout.contains("totalItems") || check.stdout.contains("upt"), check.stdout)
        }
    }

    /// The same export read as a German company's: euros and `de-DE` numbers in text, plain in JSON.
    func testThePOSExportPrintsItsOwnCurrency() throws {
        let sums = try Self.exportSums(store: "8", from: "2025-07-01", through: "2025-07-14")
        config = try write(
            "ddkpi.toml",
            "currency = \"EUR\"\nlocale = \"de-DE\"\n[aliases.sales-audit]\ntotalTransactions = [\"Customers\"]\n")
        try loaded { database in
            XCTAssertEqual(
                try kpiMetrics(database, asOf: "2025-07-14")["totalSales"]?["actual"] as? Double, Double(sums.sales))
            let text = try ddkpi(database, ["kpi", "--as-of", "2025-07-14", "--store", "08"])
            let sales = try XCTUnwrap(text.stdout.split(separator: "\n").first { $0.hasPrefix("Sales ") })
            // 84712 is written 84.712 in German, followed by the euro sign.
            let grouped = String(sums.sales / 1_000) + "." + String(format: "%03d", sums.sales % 1_000)
            XCTAssertTrue(sales.contains(grouped) && sales.contains("€") && !sales.contains("$"), String(sales))
        }
    }
}

/// Day labels for hand-written files.
private enum CivilDateText {
    /// `count` consecutive `YYYY-MM-DD` days from `first`.
    static func days(from first: String, count: Int) -> [String]? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard let start = formatter.date(from: first) else { return nil }
        return (0..<count).map { formatter.string(from: start.addingTimeInterval(Double($0) * 86_400)) }
    }
}
