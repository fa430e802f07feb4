import Foundation
import TestSupport
import XCTest

/// `SampleFeeds/fiscal/` (SPEC section 21: the NRF 4-5-4 calendar, weekday LY and comparable
/// stores) through the binary, byte for byte against its goldens in `Reports/`, with and without
/// the rollups and on PostgreSQL. `UPDATE_GOLDEN=1 swift test` re-records them.
final class FiscalSampleTests: XCTestCase {
    private static let warehouse = IngestedOnce(fileName: "fiscal.sqlite", ingest: ingestSample(into:))

    static let sample = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/fiscal")
    static let config = sample.appendingPathComponent("ddkpi.toml").path

    /// Every fiscal golden: (file in `Reports/`, ddkpi arguments).
    static let reports: [(String, [String])] = [
        ("fiscal-kpi-2025-06-17.txt", ["kpi", "--as-of", "2025-06-17", "--format", "table"]),
        ("fiscal-kpi-2025-06-17.json", ["kpi", "--as-of", "2025-06-17", "--format", "json"]),
        ("fiscal-kpi-2025-06-17.csv", ["kpi", "--as-of", "2025-06-17", "--format", "csv"]),
        ("fiscal-review-FY2025Q2.txt", ["review", "--quarter", "2025Q2", "--format", "text"]),
        ("fiscal-review-FY2025Q2.csv", ["review", "--quarter", "2025Q2", "--format", "csv"]),
        ("fiscal-review-FY2025Q2.json", ["review", "--quarter", "2025Q2", "--format", "json"]),
        ("fiscal-review-FY2025Q2.html", ["review", "--quarter", "2025Q2", "--format", "html"]),
        ("fiscal-stores.csv", ["stores", "list", "--format", "csv"]),
    ]

    /// Imports the fiscal sample's stores and goals and ingests its feeds into `database`.
    static func ingestSample(into database: String) throws {
        for arguments in [
            ["stores", "import", sample.appendingPathComponent("reference/stores.csv").path],
            ["goals", "import", sample.appendingPathComponent("reference/goals.csv").path],
            ["ingest", sample.appendingPathComponent("feeds").path],
        ] {
            let result = try CommandRunner.ddkpi(["--db", database, "--config", config] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    private func sampleDatabase() throws -> String { try Self.warehouse.path() }

    override class func tearDown() {
        warehouse.remove()
        super.tearDown()
    }

    private func run(_ database: String, _ arguments: [String], bypassRollups: Bool = false) throws -> String {
        let result = try CommandRunner.ddkpi(
            ["--db", database, "--config", Self.config] + arguments,
            environment: ["NO_COLOR": "1", "DDKPI_BYPASS_ROLLUPS": bypassRollups ? "1" : "0"])
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        return result.stdout
    }

    func testFiscalGoldens() throws {
        let database = try sampleDatabase()
        let update = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"
        for (name, arguments) in Self.reports {
            let output = try run(database, arguments)
            let golden = TestPaths.packageRoot.appendingPathComponent("Reports/\(name)")
            if update {
                try output.write(to: golden, atomically: true, encoding: .utf8)
                XCTFail("re-recorded Reports/\(name); run again without UPDATE_GOLDEN to check it")
                continue
            }
            XCTAssertEqual(output, try String(contentsOf: golden, encoding: .utf8), "Reports/\(name) differs")
            XCTAssertEqual(try run(database, arguments, bypassRollups: true), output, "Reports/\(name) without rollups")
        }
    }

    func testFiscalGoldensOnPostgreSQL() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        try Self.ingestSample(into: url)
        for (name, arguments) in Self.reports {
            let expected = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/\(name)"), encoding: .utf8)
            XCTAssertEqual(try run(url, arguments), expected, "Reports/\(name) from PostgreSQL")
        }
    }

    /// The story the sample was made to tell: FY labels, weekday LY, and comp sales that leave
    /// out the store opened in 2024-09 and the one closed in 2025-05.
    func testTheSamplesComparableStores() throws {
        let database = try sampleDatabase()
        let json = try run(database, ["review", "--quarter", "2025Q2", "--format", "json"])
        XCTAssertTrue(json.hasPrefix("{\"quarter\":\"FY2025Q2\""), String(json.prefix(40)))
        XCTAssertTrue(
            json.contains("\"FY2025-M04\":{\"start\":\"2025-05-04\",\"end\":\"2025-05-31\",\"lyStart\":\"2024-05-05\""))
        let csv = try run(database, ["review", "--quarter", "2025Q2", "--format", "csv"])
        let compQuarter = csv.split(separator: "\n").first { $0.hasPrefix("comp:ALL,FY2025Q2,totalSales,") }
        XCTAssertEqual(
            compQuarter, "comp:ALL,FY2025Q2,totalSales,4300360.11,,,4120493.91,0.04365161165837028,2025-08-02,,,,")
        XCTAssertTrue(json.contains("{\"scope\":\"comp:ALL\",\"periods\":{"))
        XCTAssertTrue(json.contains("\"stores\":5,"), "31, 32, 33, 35 and 37")
        let q1 = try run(database, ["review", "--quarter", "2025Q1", "--format", "json"])
        let compQ1 = try XCTUnwrap(q1.range(of: "{\"scope\":\"comp:ALL\"").map { q1[$0.lowerBound...] })
        XCTAssertTrue(
            compQ1.contains(
                "\"FY2025Q1\":{\"start\":\"2025-02-02\",\"end\":\"2025-05-03\",\"lyStart\":\"2024-02-04\",\"lyEnd\":\"2024-05-04\",\"running\":false,\"stores\":6,"
            ), "Waterbury still open")
    }

    /// `stores list` in JSON and as a table: the directory's days and the first sales day that
    /// stands in for a missing `opened`.
    func testStoresList() throws {
        let database = try sampleDatabase()
        let json = try run(database, ["stores", "list", "--format", "json"])
        XCTAssertTrue(
            json.contains(
                "{\"code\":\"33\",\"name\":\"Westport\",\"region\":\"East\",\"status\":\"active\",\"opened\":null,\"closed\":null,\"comparableFrom\":\"2023-01-29\","
            ), json)
        XCTAssertTrue(json.contains("\"closed\":\"2025-05-17\""), json)
        let table = try run(database, ["stores", "list"])
        XCTAssertTrue(
            table.hasPrefix("code  name        region  status  opened      closed      comparable_from\n"), table)
    }

    /// Under a fiscal calendar a `YYYY-MM` goal is refused, naming the row (SPEC section 21).
    func testCalendarMonthGoalUnderAFiscalCalendarNamesTheRow() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("goals.sqlite").path
        let stores = try CommandRunner.ddkpi([
            "--db", database, "--config", Self.config, "stores", "import",
            Self.sample.appendingPathComponent("reference/stores.csv").path,
        ])
        XCTAssertEqual(stores.status, 0, stores.stderr)
        let goals = try TestPaths.write(
            Array("period,scope,metric,target\nFY2025-M04,global,totalSales,1000\n2025-05,31,totalSales,900\n".utf8),
            named: "goals.csv", in: directory)
        let result = try CommandRunner.ddkpi(["--db", database, "--config", Self.config, "goals", "import", goals])
        XCTAssertEqual(result.status, 1, result.stdout + result.stderr)
        let message = result.stdout + result.stderr
        XCTAssertTrue(message.contains("row 3"), message)
        XCTAssertTrue(message.contains("2025-05"), message)
        XCTAssertTrue(message.contains("a fiscal month such as FY2025-M04 (the calendar is nrf-454)"), message)
        let count = try CommandRunner.ddkpi(["--db", database, "runs", "--format", "json"])
        XCTAssertTrue(count.stdout.contains("\"failed\""), count.stdout)
    }

    /// Goals of the other calendar feed no target: every report says so once on standard error,
    /// with their count, rather than blanking the targets silently (issue 43).
    func testGoalsOfTheOtherCalendarAreNamedOnce() throws {
        let fiscal = try sampleDatabase()
        let gregorian = try CommandRunner.ddkpi(["--db", fiscal, "kpi", "--as-of", "2025-06-17"])
        XCTAssertEqual(gregorian.status, 0, gregorian.stderr)
        XCTAssertEqual(
            gregorian.stderr,
            "ddkpi: warning: 291 goals are fiscal months (FY2025-M04), but the calendar is gregorian: no target uses them; import goals by calendar month (YYYY-MM)\n"
        )

        let calendarGoals = try GoldenReportTests.sample.path()
        for command in [["kpi", "--as-of", "2025-06-15"], ["review", "--quarter", "2025Q2"]] {
            let retail = try CommandRunner.ddkpi(["--db", calendarGoals, "--config", Self.config] + command)
            XCTAssertEqual(retail.status, 0, retail.stderr)
            XCTAssertEqual(
                retail.stderr,
                "ddkpi: warning: 349 goals are calendar months (YYYY-MM), but the calendar is nrf-454: no target uses them; import fiscal-period goals (FY2025-M04)\n"
            )
        }

        let matching = try CommandRunner.ddkpi([
            "--db", fiscal, "--config", Self.config, "kpi", "--as-of", "2025-06-17",
        ])
        XCTAssertEqual(matching.stderr, "", "goals of the calendar in use: nothing to say")
    }
}
