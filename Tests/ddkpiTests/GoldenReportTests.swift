import Foundation
import TestSupport
import XCTest

/// The reports of `SampleFeeds/`, byte for byte against `Reports/`. `UPDATE_GOLDEN=1 swift test`
/// re-records them and fails the run, so a re-record never passes silently.
final class GoldenReportTests: XCTestCase {
    static let sample = IngestedOnce(fileName: "sample.sqlite", ingest: ingestSamples(into:))

    /// Every golden report: (file in `Reports/`, ddkpi arguments).
    static let reports: [(String, [String])] = [
        ("review-2025Q1.txt", ["review", "--quarter", "2025Q1", "--format", "text"]),
        ("review-2025Q1.csv", ["review", "--quarter", "2025Q1", "--format", "csv"]),
        ("review-2025Q1.json", ["review", "--quarter", "2025Q1", "--format", "json"]),
        ("review-2025Q2.txt", ["review", "--quarter", "2025Q2", "--format", "text"]),
        ("review-2025Q2.csv", ["review", "--quarter", "2025Q2", "--format", "csv"]),
        ("review-2025Q2.json", ["review", "--quarter", "2025Q2", "--format", "json"]),
        ("review-2025Q2.html", ["review", "--quarter", "2025Q2", "--format", "html"]),
        ("kpi-2025-03-31.txt", ["kpi", "--as-of", "2025-03-31", "--format", "table"]),
        ("kpi-2025-03-31.json", ["kpi", "--as-of", "2025-03-31", "--format", "json"]),
        ("kpi-2025-06-15.txt", ["kpi", "--as-of", "2025-06-15", "--format", "table"]),
        ("kpi-2025-06-15.json", ["kpi", "--as-of", "2025-06-15", "--format", "json"]),
        ("kpi-2025-06-15.csv", ["kpi", "--as-of", "2025-06-15", "--format", "csv"]),
        ("employees-2025-06-30-QTD.txt", ["employees", "--as-of", "2025-06-30", "--period", "QTD"]),
        ("employees-2025-06-30-QTD.csv", ["employees", "--as-of", "2025-06-30", "--period", "QTD", "--format", "csv"]),
        ("employees-2025-06-15.json", ["employees", "--as-of", "2025-06-15", "--format", "json", "--top", "5"]),
        (
            "employees-2025-06-30-QTD.html",
            ["employees", "--as-of", "2025-06-30", "--period", "QTD", "--format", "html"]
        ),
        ("merch-vendor-2025Q2.csv", ["merch", "--quarter", "2025Q2", "--by", "vendor", "--format", "csv"]),
        (
            "merch-vendor-2025Q2.txt",
            ["merch", "--quarter", "2025Q2", "--by", "vendor", "--format", "table", "--top", "5"]
        ),
        (
            "merch-vendor-2025Q2.html",
            ["merch", "--quarter", "2025Q2", "--by", "vendor", "--format", "html", "--top", "5"]
        ),
        (
            "merch-category-2025-06-15-QTD.csv",
            ["merch", "--as-of", "2025-06-15", "--period", "QTD", "--by", "category", "--format", "csv"]
        ),
        (
            "merch-category-2025-06-15-QTD.json",
            ["merch", "--as-of", "2025-06-15", "--period", "QTD", "--by", "category", "--format", "json", "--top", "3"]
        ),
        ("status-2025-07-01.txt", ["status", "--as-of", "2025-07-01"]),
    ]

    /// Ingests SampleFeeds once, with the binary, as the README's main job does.
    func sampleDatabase() throws -> String { try Self.sample.path() }

    /// Imports the stores and goals and ingests every feed of SampleFeeds into `database`.
    static func ingestSamples(into database: String) throws {
        let samples = TestPaths.packageRoot.appendingPathComponent("SampleFeeds")
        for arguments in [
            ["stores", "import", samples.appendingPathComponent("reference/stores.csv").path],
            ["goals", "import", samples.appendingPathComponent("reference/goals.xlsx").path],
            ["ingest", samples.appendingPathComponent("feeds").path],
        ] {
            let result = try CommandRunner.ddkpi(["--db", database] + arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
        }
    }

    /// The same inputs in a PostgreSQL warehouse give every golden report byte for byte, with
    /// and without the rollups, and the same workbook (SPEC section 14).
    func testGoldenReportsOnPostgreSQL() throws {
        let url = try TestWarehouses.postgresWarehouseURL()
        try Self.ingestSamples(into: url)
        for (name, arguments) in Self.reports {
            let expected = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/\(name)"), encoding: .utf8)
            for bypass in ["0", "1"] {
                let result = try CommandRunner.ddkpi(
                    ["--db", url] + arguments, environment: ["NO_COLOR": "1", "DDKPI_BYPASS_ROLLUPS": bypass])
                XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
                XCTAssertEqual(result.stdout, expected, "Reports/\(name) from PostgreSQL (rollups bypassed: \(bypass))")
            }
        }
        let workbook = try scratchPath("review-2025Q2-postgresql.xlsx")
        let written = try CommandRunner.ddkpi([
            "--db", url, "review", "--quarter", "2025Q2", "--format", "xlsx", "--output", workbook,
        ])
        XCTAssertEqual(written.status, 0, written.stderr)
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: workbook)),
            try Data(contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/review-2025Q2.xlsx")))
        let check = try CommandRunner.ddkpi(["--db", url, "rollups", "check"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.hasPrefix("ok: "), check.stdout)
    }

    override class func tearDown() {
        sample.remove()
        super.tearDown()
    }

    func testGoldenReports() throws {
        let database = try sampleDatabase()
        let update = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"
        for (name, arguments) in Self.reports {
            let result = try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.stderr)")
            let golden = TestPaths.packageRoot.appendingPathComponent("Reports/\(name)")
            if update {
                try result.stdout.write(to: golden, atomically: true, encoding: .utf8)
                XCTFail("re-recorded Reports/\(name); run again without UPDATE_GOLDEN to check it")
                continue
            }
            let expected = try String(contentsOf: golden, encoding: .utf8)
            XCTAssertEqual(
                result.stdout, expected,
                "Reports/\(name) differs; if the change is intended, run UPDATE_GOLDEN=1 swift test")
        }
    }

    /// The rollups are an optimisation (SPEC section 13): every golden report is byte-identical
    /// with them bypassed, and `rollups check` finds them equal to a full recomputation.
    func testGoldenReportsAreIdenticalWithoutRollups() throws {
        let database = try sampleDatabase()
        for (name, arguments) in Self.reports {
            let bypassed = try CommandRunner.ddkpi(
                ["--db", database] + arguments, environment: ["NO_COLOR": "1", "DDKPI_BYPASS_ROLLUPS": "1"])
            XCTAssertEqual(bypassed.status, 0, "\(name): \(bypassed.stderr)")
            let expected = try String(
                contentsOf: TestPaths.packageRoot.appendingPathComponent("Reports/\(name)"), encoding: .utf8)
            XCTAssertEqual(bypassed.stdout, expected, "Reports/\(name) without rollups")
        }
        let check = try CommandRunner.ddkpi(["--db", database, "rollups", "check"])
        XCTAssertEqual(check.status, 0, check.stderr)
        XCTAssertTrue(check.stdout.hasPrefix("ok: "), check.stdout)
    }

    /// The workbook byte for byte: libxlsxwriter with the quarter's end as creation time.
    func testGoldenWorkbook() throws {
        let path = try sampleWorkbook()
        let golden = TestPaths.packageRoot.appendingPathComponent("Reports/review-2025Q2.xlsx")
        let written = try Data(contentsOf: URL(fileURLWithPath: path))
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try written.write(to: golden)
            return XCTFail("re-recorded Reports/review-2025Q2.xlsx; run again without UPDATE_GOLDEN to check it")
        }
        XCTAssertEqual(
            written, try Data(contentsOf: golden),
            "Reports/review-2025Q2.xlsx differs; if the change is intended, run UPDATE_GOLDEN=1 swift test")
    }

    /// `review --quarter 2025Q2 --format xlsx`, written once into the test's directory.
    func sampleWorkbook() throws -> String {
        let database = try sampleDatabase()
        let path = try scratchPath("review-2025Q2.xlsx")
        if FileManager.default.fileExists(atPath: path) { return path }
        let result = try CommandRunner.ddkpi([
            "--db", database, "review", "--quarter", "2025Q2", "--format", "xlsx", "--output", path,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return path
    }

    func testReportsAreDeterministicAndFitTheTerminal() throws {
        let database = try sampleDatabase()
        let first = try CommandRunner.ddkpi(["--db", database, "review", "--quarter", "2025Q2"]).stdout
        let second = try CommandRunner.ddkpi(["--db", database, "review", "--quarter", "2025Q2"]).stdout
        XCTAssertEqual(first, second)
        XCTAssertLessThanOrEqual(first.split(separator: "\n").map(\.count).max() ?? 0, 120)
        XCTAssertFalse(first.contains("\u{1B}["), "no colour when not on a terminal")
        let output = try XCTUnwrap(Self.sample.directory).appendingPathComponent("review.csv").path
        XCTAssertEqual(
            try CommandRunner.ddkpi([
                "--db", database, "review", "--quarter", "2025Q2", "--format", "csv", "--output", output,
            ]).status, 0)
        XCTAssertTrue(
            try String(contentsOfFile: output, encoding: .utf8).hasPrefix(
                "scope,period,metric,actual,target,pct_to_target,ly,pct_vs_ly,end,full_target,projected,needed,needed_per_day\n08,2025-04,totalSales,"
            ))
    }

    func testReportUsageErrorsExitTwo() throws {
        let database = try sampleDatabase()
        let cases: [([String], String)] = [
            (["review", "--quarter", "2025Q5"], "expected a quarter such as 2025Q2"),
            (["kpi", "--as-of", "2025-02-30"], "expected a date as YYYY-MM-DD"),
            (["kpi", "--as-of", "2025-06-15", "--store", "99"], "unknown store \"99\""),
            (
                ["kpi", "--as-of", "2025-06-15", "--region", "North"],
                "unknown region \"North\"; known regions: East, South"
            ),
            (["kpi", "--as-of", "2031-01-01"], "no data as of 2031-01-01: data through 2025-06-30"),
            (["review", "--quarter", "2019Q1"], "no data for 2019Q1: no sales-audit rows on or before 2019-03-31"),
        ]
        for (arguments, message) in cases {
            let result = try CommandRunner.ddkpi(["--db", database] + arguments)
            XCTAssertEqual(result.status, 2, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
        let filtered = try CommandRunner.ddkpi([
            "--db", database, "kpi", "--as-of", "2025-06-15", "--region", "south", "--format", "csv",
        ])
        let scopes = Set(filtered.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] })
        XCTAssertEqual(scopes, ["21", "23", "27", "region:South"])
    }
}
