import Foundation
import TestSupport
import Warehouse
import XCTest

/// A weekly sales export (SPEC section 26) through the binary, on each backend: Walmart's layout
/// (`Store,Date,Weekly_Sales,…`, the date the Friday that ends each week, day first), loaded
/// unedited with a few lines of config, each week stored and credited by its Saturday start.
final class WeeklySalesCommandTests: XCTestCase {
    private var directory: URL!

    /// Stores 8 and 10, the eight weeks ending Friday 2025-06-06 … 2025-07-25.
    private static let export = TestPaths.fixture("feeds/weekly_store_sales.csv")

    private static let config = """
        week_start = "saturday"
        day_first_dates = true

        [feeds]
        enabled = ["sales-audit"]

        [feeds.sales-audit]
        grain = "week"
        week_date = "end"

        [aliases.sales-audit]
        totalSales = ["Weekly_Sales"]

        """

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func ddkpi(_ database: String, _ arguments: [String], config: String = config) throws
        -> CommandRunner.Result
    {
        let path = try TestPaths.write(Array(config.utf8), named: "ddkpi.toml", in: directory)
        return try CommandRunner.ddkpi(
            ["--db", database, "--config", path] + arguments, environment: ["NO_COLOR": "1"])
    }

    /// The export's weeks of store `store` (as it spells it): each week's first day (the Saturday
    /// six days before the row's Friday) and its sales in cents, read straight from the file.
    private static func weeks(store: String) throws -> [(start: String, cents: Int)] {
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n").dropFirst()
        let calendar = Calendar(identifier: .gregorian)
        var formatter = Date.ISO8601FormatStyle().year().month().day()
        formatter.timeZone = TimeZone(identifier: "UTC") ?? .gmt
        return try lines.compactMap { line in
            let cells = line.split(separator: ",").map(String.init)
            guard cells[0] == store else { return nil }
            let parts = cells[1].split(separator: "-").compactMap { Int($0) }
            var components = DateComponents(year: parts[2], month: parts[1], day: parts[0])
            components.timeZone = formatter.timeZone
            let friday = try XCTUnwrap(calendar.date(from: components))
            let start = try XCTUnwrap(calendar.date(byAdding: .day, value: -6, to: friday))
            let cents = try XCTUnwrap(Decimal(string: cells[2])) * 100
            return (formatter.format(start), NSDecimalNumber(decimal: cents).intValue)
        }
    }

    /// Σ sales in dollars of the weeks of `store` that start in `first...last`.
    private static func sales(store: String, from first: String, through last: String) throws -> Double {
        Double(try weeks(store: store).filter { $0.start >= first && $0.start <= last }.map(\.cents).reduce(0, +))
            / 100
    }

    /// The `kpi --format json` document's `metrics` of store 08 per period, and its `asOf`.
    private func kpi(_ database: String, _ arguments: [String] = []) throws -> (
        asOf: String?, periods: [String: [String: Any]]
    ) {
        let result = try ddkpi(database, ["kpi", "--store", "08", "--format", "json"] + arguments)
        XCTAssertEqual(result.status, 0, result.stderr)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let scope = try XCTUnwrap((document["scopes"] as? [[String: Any]])?.first)
        let periods = try XCTUnwrap(scope["periods"] as? [String: [String: Any]])
        return (document["asOf"] as? String, periods)
    }

    private func totalSales(_ period: [String: Any]?) -> Any? {
        ((period?["metrics"] as? [String: Any])?["totalSales"] as? [String: Any])?["actual"]
    }

    func testAWeeklyExportLoadsUneditedAndEachWeekCountsFromItsStartOnEachBackend() throws {
        for location in try TestWarehouses.locations(in: directory) {
            print("backend: \(location.backendName)")
            let database = location.argument
            XCTAssertEqual(
                try ddkpi(database, ["stores", "import", TestPaths.fixture("feeds/stores_small.csv")]).status, 0)
            let ingest = try ddkpi(database, ["ingest", Self.export])
            XCTAssertEqual(ingest.status, 0, ingest.stderr)
            XCTAssertTrue(ingest.stdout.contains("read=16 inserted=16"), ingest.stdout)
            XCTAssertFalse(ingest.stderr.contains("alarm"), ingest.stderr)

            let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
            XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report WHERE grain = 'week'"), 16)
            XCTAssertEqual(
                try warehouse.integer(
                    "SELECT total_sales_cents FROM store_report WHERE store_code = '08' AND date = '2025-05-31'"),
                Int64(try XCTUnwrap(Self.weeks(store: "8").first { $0.start == "2025-05-31" }).cents))

            // The latest data day is the last week's Friday; July holds the weeks from 07-05, 07-12 and 07-19.
            let current = try kpi(database)
            XCTAssertEqual(current.asOf, "2025-07-25")
            XCTAssertEqual(
                totalSales(current.periods["MTD"]) as? Double,
                try Self.sales(store: "8", from: "2025-07-01", through: "2025-07-25"))
            XCTAssertEqual(
                totalSales(current.periods["WTD"]) as? Double,
                try Self.sales(store: "8", from: "2025-07-19", through: "2025-07-25"))
            XCTAssertEqual(
                totalSales(current.periods["YTD"]) as? Double,
                try Self.sales(store: "8", from: "2025-01-01", through: "2025-07-25"))

            // The running quarter's review is cut at the last week's end and holds July's weeks.
            let review = try ddkpi(database, ["review", "--quarter", "2025Q3", "--store", "08", "--format", "json"])
            XCTAssertEqual(review.status, 0, review.stderr)
            let document = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(review.stdout.utf8)) as? [String: Any])
            let quarter = try XCTUnwrap(
                ((document["scopes"] as? [[String: Any]])?.first?["periods"] as? [String: Any])?["2025Q3"]
                    as? [String: Any])
            XCTAssertEqual(quarter["end"] as? String, "2025-07-25")
            XCTAssertEqual(quarter["running"] as? Bool, true)
            XCTAssertEqual(
                totalSales(quarter) as? Double, try Self.sales(store: "8", from: "2025-07-01", through: "2025-07-25"))

            // A week after the last one has no data rather than $0; the quarter says where it stops.
            let later = try kpi(database, ["--as-of", "2025-08-05"])
            XCTAssertTrue(totalSales(later.periods["MTD"]) is NSNull, "\(later.periods["MTD"] ?? [:])")
            XCTAssertTrue(totalSales(later.periods["WTD"]) is NSNull)
            XCTAssertEqual(
                totalSales(later.periods["QTD"]) as? Double,
                try Self.sales(store: "8", from: "2025-07-01", through: "2025-08-05"))

            // Four days after the last week's end a weekly feed is not late; eleven days after, it is.
            let status = try ddkpi(database, ["status", "--as-of", "2025-07-29"])
            XCTAssertEqual(status.status, 0, status.stdout)
            XCTAssertTrue(
                status.stdout.contains("sales-audit    08 2025-07-25          4          9      ok"), status.stdout)
            XCTAssertEqual(try ddkpi(database, ["status", "--as-of", "2025-08-05"]).status, 4)
            XCTAssertEqual(
                try ddkpi(database, ["check", "--as-of", "2025-07-25"]).status, 0, "weeks are not judged as days")
        }
    }

    func testAWeekDateBesidesStartOrEndIsAConfigError() throws {
        let database = directory.appendingPathComponent("w.db").path
        let middle = try ddkpi(
            database, ["status"],
            config: Self.config.replacingOccurrences(of: "week_date = \"end\"", with: "week_date = \"middle\""))
        XCTAssertEqual(middle.status, 2)
        XCTAssertTrue(
            middle.stderr.contains("feeds.sales-audit.week_date: expected \"start\" or \"end\""), middle.stderr)
        let daily = try ddkpi(
            database, ["status"],
            config: Self.config.replacingOccurrences(of: "grain = \"week\"", with: "grain = \"day\""))
        XCTAssertEqual(daily.status, 2)
        XCTAssertTrue(
            daily.stderr.contains("feeds.sales-audit.week_date: expected grain = \"week\" with it"), daily.stderr)
    }
}
