import CivilCalendar
import Foundation
import TestSupport
import XCTest

@testable import ddkpi

/// `[check] closed`'s store and region entries (SPEC section 26): how the config reads them, the
/// errors that name an entry, and through the binary a region's zero day excused for its stores
/// alone.
final class ClosedDaysConfigTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func load(_ check: String) throws -> Configuration {
        try Configuration.load(path: try write("ddkpi.toml", "[check]\n" + check + "\n"))
    }

    func testAMixedListReadsEachEntry() throws {
        let loaded = try load(
            """
            closed = ["12-25", "easter", { stores = ["08", "12", 7], dates = ["2025-07-04", "easter"] },
                      { region = "East", dates = ["12-24"] }]
            """)
        let christmas = try XCTUnwrap(CivilDate(iso8601: "2025-12-25"))
        let easter = try XCTUnwrap(CivilDate(iso8601: "2025-04-20"))
        let independence = try XCTUnwrap(CivilDate(iso8601: "2025-07-04"))
        let christmasEve = try XCTUnwrap(CivilDate(iso8601: "2026-12-24"))
        XCTAssertEqual(loaded.checks.closed.count, 2)
        XCTAssertTrue(loaded.checks.isClosed(christmas) && loaded.checks.isClosed(easter))
        XCTAssertEqual(loaded.checks.storeClosed.map(\.stores), [["08", "12", "07"], []])
        XCTAssertEqual(loaded.checks.storeClosed.map(\.region), [nil, "East"])
        XCTAssertEqual(loaded.checks.storeClosed.map { $0.excuses(independence) }, [true, false])
        XCTAssertEqual(loaded.checks.storeClosed.map { $0.excuses(easter.adding(days: 364)) }, [false, false])
        XCTAssertEqual(
            loaded.checks.storeClosed.map { $0.excuses(CivilDate(year: 2026, month: 4, day: 5)) }, [true, false])
        XCTAssertEqual(loaded.checks.storeClosed.map { $0.excuses(christmasEve) }, [false, true])
        XCTAssertTrue(loaded.checks.isClosed(independence, store: "07"))
        XCTAssertFalse(loaded.checks.isClosed(independence, store: "10"))
        let plain = try load("closed = [\"12-25\"]")
        XCTAssertEqual(plain.checks.storeClosed, [])
    }

    func testAnEntryThatIsNotUnderstoodIsNamed() throws {
        for (text, message) in [
            (
                "closed = [\"12-25\", { stores = [\"08\"], days = [\"12-24\"] }]",
                "check.closed, entry 2: expected { stores = [\"08\", \"12\"], dates = [\"2025-07-04\"] } or { region = \"East\", dates = [\"12-24\"] }, not the key \"days\""
            ),
            ("closed = [{ stores = [\"08\"] }]", "check.closed, entry 1: expected { stores = "),
            ("closed = [{ dates = [\"12-24\"] }]", ": stores or region is missing"),
            (
                "closed = [{ stores = [\"08\"], region = \"East\", dates = [\"12-24\"] }]",
                ": stores or region, not both"
            ),
            (
                "closed = [{ stores = [\"Natick\"], dates = [\"12-24\"] }]",
                "check.closed, entry 1: expected stores as store codes such as [\"08\", \"12\"], not \"Natick\""
            ),
            (
                "closed = [{ region = \"East\", dates = [\"24-12\"] }]",
                "check.closed, entry 1: expected dates as \"MM-DD\" or \"YYYY-MM-DD\", or one of \"easter\""
            ),
            ("closed = [{ region = \"\", dates = [\"12-24\"] }]", "expected region as the name of a region"),
            ("closed = [12]", "check.closed: expected days as \"MM-DD\" or \"YYYY-MM-DD\""),
        ] {
            XCTAssertThrowsError(try load(text), text) { error in
                XCTAssertTrue("\(error)".contains(message), "\(text): \(error)")
            }
        }
    }

    /// Through the binary: two East stores and a West one, all with no sales on a Thursday they
    /// usually trade; an East entry excuses the East stores alone, a store entry its store alone,
    /// and a region or store the directory lacks is a configuration error (exit 2).
    func testARegionsClosedDayExcusesItsStoresAlone() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
            try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
        }
        let stores = try write(
            "stores.csv",
            "code,name,region,status\n08,Natick,East,active\n10,Framingham,East,active\n12,Hyannis,West,active\n")
        XCTAssertEqual(try ddkpi(["stores", "import", stores]).status, 0)
        let first = try XCTUnwrap(CivilDate(iso8601: "2025-05-01"))
        let closedDay = try XCTUnwrap(CivilDate(iso8601: "2025-07-10"))
        var rows = "Store,Date,Net Sales,Transactions,Items\n"
        for offset in 0...75 {
            let day = first.adding(days: offset)
            for (index, store) in ["08", "10", "12"].enumerated() {
                let sales = day == closedDay ? 0 : 1_000 + (37 * offset + 11 * index) % 97
                rows += "\(store),\(day.iso8601),\(sales),\(day == closedDay ? 0 : 40),\(day == closedDay ? 0 : 60)\n"
            }
        }
        XCTAssertEqual(try ddkpi(["ingest", try write("sales_audit.csv", rows)]).status, 0)
        func zeroDays(_ closed: String) throws -> CommandRunner.Result {
            let config = try write("ddkpi.toml", "[check]\nclosed = \(closed)\n")
            return try ddkpi(["--config", config, "check", "--since", "2025-07-01", "--format", "json"])
        }
        func zeroDayStores(_ result: CommandRunner.Result) -> [String] {
            ["08", "10", "12"].filter {
                result.stdout.contains("\"kind\":\"zero-day\",\"feed\":\"sales-audit\",\"store\":\"\($0)\"")
            }
        }
        XCTAssertEqual(zeroDayStores(try zeroDays("[]")), ["08", "10", "12"])
        XCTAssertEqual(zeroDayStores(try zeroDays("[\"07-10\"]")), [])
        XCTAssertEqual(zeroDayStores(try zeroDays("[{ region = \"East\", dates = [\"07-10\"] }]")), ["12"])
        XCTAssertEqual(zeroDayStores(try zeroDays("[{ stores = [\"10\"], dates = [\"2025-07-10\"] }]")), ["08", "12"])
        XCTAssertEqual(zeroDayStores(try zeroDays("[{ region = \"East\", dates = [\"07-11\"] }]")), ["08", "10", "12"])

        let north = try zeroDays("[{ region = \"North\", dates = [\"07-10\"] }]")
        XCTAssertEqual(north.status, 2, north.stderr)
        XCTAssertTrue(
            north.stderr.contains(
                "check.closed, the entry { region = \"North\" }: region \"North\" is not in the store directory (its regions: East, West)"
            ), north.stderr)
        let unknown = try zeroDays("[{ stores = [\"08\", \"99\"], dates = [\"07-10\"] }]")
        XCTAssertEqual(unknown.status, 2, unknown.stderr)
        XCTAssertTrue(
            unknown.stderr.contains(
                "check.closed, the entry { stores = [\"08\", \"99\"] }: store 99 is not in the store directory"),
            unknown.stderr)
    }
}
