import Foundation
import SheetFixtures
import TestSupport
import XCTest

/// Outbound calls from weekly pivot files whose week dates fall mid-week (SPEC section 4),
/// checked against a computation written apart from ddkpi's: each row's week is found by
/// walking back to the configured weekday, and each weekday column is the day of that week
/// whose weekday name is the column's.
final class WeeklyPivotTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        return calendar
    }

    private func date(_ iso: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: iso) ?? Date.distantPast
    }

    private func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        return formatter.string(from: date)
    }

    /// "Mon"…"Sun" of a day, from Foundation's calendar (weekday 1 is Sunday there).
    private func weekdayName(_ day: Date) -> String {
        Self.weekdayNames[(calendar.component(.weekday, from: day) + 5) % 7]
    }

    /// The first day of a row's week: its date walked back to the configured weekday.
    private func weekStart(_ week: String, weekStartName: String) -> Date {
        var start = date(week)
        while weekdayName(start) != weekStartName {
            start = calendar.date(byAdding: .day, value: -1, to: start) ?? start
        }
        return start
    }

    /// The feed's last data day as of `asOf` (SPEC section 7): the latest week start + 6 of the
    /// rows whose week starts by then, capped at `asOf`; `nil` without such a row.
    private func lastDataDay(rows: [(week: String, counts: [String: Int])], weekStartName: String, asOf: String)
        -> String?
    {
        rows.map { weekStart($0.week, weekStartName: weekStartName) }.filter { iso($0) <= asOf }.map {
            min(iso(calendar.date(byAdding: .day, value: 6, to: $0) ?? $0), asOf)
        }.max()
    }

    /// Calls per day, computed independently of ddkpi from the pivot rows.
    private func expectedCalls(rows: [(week: String, counts: [String: Int])], weekStartName: String) -> [String: Int] {
        var calls: [String: Int] = [:]
        for row in rows {
            let start = weekStart(row.week, weekStartName: weekStartName)
            for offset in 0..<7 {
                guard let day = calendar.date(byAdding: .day, value: offset, to: start),
                    let count = row.counts[weekdayName(day)]
                else { continue }
                calls[iso(day), default: 0] += count
            }
        }
        return calls
    }

    func testMidWeekPivotRowsAgreeWithAnIndependentComputation() throws {
        let stores = directory.appendingPathComponent("stores.csv")
        try "code,name,region\n08,Natick,East\n".write(to: stores, atomically: true, encoding: .utf8)
        var generator = SplitMix(seed: 20_251_123)
        var rows: [(week: String, counts: [String: Int])] = []
        var start = date("2024-12-04")
        for index in 0..<20 {
            // Week dates on every weekday in turn; some rows give only some weekday columns.
            let given = calendar.date(byAdding: .day, value: index % 7, to: start) ?? start
            let columns = index % 3 == 0 ? ["Mon", "Wed", "Sun"] : Self.weekdayNames
            rows.append(
                (iso(given), Dictionary(uniqueKeysWithValues: columns.map { ($0, Int(generator.next() % 40)) })))
            // A fortnight apart, so no two rows share a week (a file is authoritative for its weeks).
            start = calendar.date(byAdding: .day, value: 14, to: start) ?? start
        }
        // One file per row layout: a CSV record needs every header column.
        var files: [URL] = []
        for (layoutIndex, layout) in [Self.weekdayNames, ["Mon", "Wed", "Sun"]].enumerated() {
            let chosen = rows.filter { Set($0.counts.keys) == Set(layout) }
            var text = "Outbound calls by week\nStore,Week Starting," + layout.joined(separator: ",") + "\n"
            for row in chosen {
                text += "08,\(row.week)," + layout.map { String(row.counts[$0] ?? 0) }.joined(separator: ",") + "\n"
            }
            let file = directory.appendingPathComponent("calls_weekly_\(layoutIndex).csv")
            try text.write(to: file, atomically: true, encoding: .utf8)
            files.append(file)
        }

        for (weekStart, weekStartName) in [("monday", "Mon"), ("sunday", "Sun")] {
            let database = directory.appendingPathComponent("\(weekStart).sqlite").path
            let config = directory.appendingPathComponent("\(weekStart).toml")
            try "week_start = \"\(weekStart)\"\n".write(to: config, atomically: true, encoding: .utf8)
            let common = ["--db", database, "--config", config.path]
            XCTAssertEqual(try CommandRunner.ddkpi(common + ["stores", "import", stores.path]).status, 0)
            let ingest = try CommandRunner.ddkpi(common + ["ingest", "--feed", "outbound-calls"] + files.map(\.path))
            XCTAssertEqual(ingest.status, 0, ingest.stderr + ingest.stdout)

            let expected = expectedCalls(rows: rows, weekStartName: weekStartName)
            for asOf in ["2025-04-09", "2025-05-18", "2025-06-30", "2025-07-22"] {
                let result = try CommandRunner.ddkpi(
                    common + ["kpi", "--as-of", asOf, "--store", "08", "--format", "json"])
                XCTAssertEqual(result.status, 0, result.stderr)
                let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                let scope = (json?["scopes"] as? [[String: Any]])?.first
                let periods = try XCTUnwrap(scope?["periods"] as? [String: [String: Any]])
                let last = lastDataDay(rows: rows, weekStartName: weekStartName, asOf: asOf)
                for (label, period) in periods {
                    let start = try XCTUnwrap(period["start"] as? String)
                    let end = try XCTUnwrap(period["end"] as? String)
                    let metrics = period["metrics"] as? [String: [String: Any]]
                    let actual = metrics?["outboundCalls"]?["actual"] as? Int
                    // A period that starts after the feed's last data day has no data (`null`).
                    let independent =
                        last.map { $0 >= start } == true
                        ? expected.filter { $0.key >= start && $0.key <= end }.values.reduce(0, +) : nil
                    XCTAssertEqual(actual, independent, "\(weekStart) weeks, \(label) \(start)…\(end)")
                }
            }
        }
    }
}
