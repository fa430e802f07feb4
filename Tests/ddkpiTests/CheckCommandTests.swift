import Foundation
import TestSupport
import Warehouse
import XCTest

/// `ddkpi check`, the ingest gate and `status`'s alarm count through the binary (SPEC section
/// 18), on SQLite and on PostgreSQL.
final class CheckCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func ddkpi(_ database: String, _ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", database] + arguments, environment: ["NO_COLOR": "1"])
    }

    private func write(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func backends() throws -> [String] {
        let postgres: [String]
        do { postgres = [try TestWarehouses.postgresWarehouseURL()] } catch is XCTSkip { postgres = [] }
        return [directory.appendingPathComponent("w.sqlite").path] + postgres
    }

    private func alarms(_ json: String) throws -> [[String: Any]] {
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try XCTUnwrap(document["alarms"] as? [[String: Any]])
    }

    private func warehouse(_ database: String) throws -> Warehouse {
        try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
    }

    /// The samples are clean but for one low Sunday at store 10, three times below its usual
    /// relative to the chain: one alarm in 3,282 store-days; none over the default 35 days.
    func testTheSamplesOnEachBackend() throws {
        for database in try backends() {
            try GoldenReportTests.ingestSamples(into: database)
            let whole = try ddkpi(database, ["check", "--since", "2024-01-01", "--format", "json"])
            XCTAssertEqual(whole.status, 4, whole.stderr)
            let found = try alarms(whole.stdout)
            XCTAssertEqual(found.count, 1, whole.stdout)
            XCTAssertEqual(found.first?["kind"] as? String, "outlier")
            XCTAssertEqual(found.first?["store"] as? String, "10")
            XCTAssertEqual(found.first?["date"] as? String, "2025-01-05")
            XCTAssertEqual(found.first?["metric"] as? String, "totalSales")
            XCTAssertEqual(found.first?["value"] as? Double, 4493.11)
            XCTAssertEqual(
                found.first?["file"] as? String,
                TestPaths.packageRoot.path + "/SampleFeeds/feeds/sales_audit_2025H1.xlsx")
            XCTAssertTrue(whole.stdout.hasPrefix("{\"asOf\":\"2025-06-30\",\"alarms\":["), whole.stdout)

            let recent = try ddkpi(database, ["check"])
            XCTAssertEqual(recent.status, 0, recent.stderr)
            XCTAssertEqual(recent.stdout, "Wrong-data checks, store-days 2025-05-27 to 2025-06-30: no alarms\n")

            let status = try ddkpi(database, ["status", "--as-of", "2025-07-01", "--format", "json"])
            XCTAssertTrue(status.stdout.hasSuffix("],\"alarms\":0}\n"), status.stdout)
        }
    }

    /// The `shifted` stores' `date` (store 08's 2025-06-10 unless told) with their decimal
    /// shifted, in a nightly file of every store.
    private func shiftedDay(_ database: String, date: String = "2025-06-10", shifted: Set<String> = ["08"]) throws
        -> String
    {
        var text = "Store,Date,Net Sales,Transactions,Items\n"
        for row in try warehouse(database).rows(
            """
            SELECT store_code, total_sales_cents, total_transactions, total_items FROM store_report
            WHERE date = '\(date)' ORDER BY store_code
            """, columns: 4)
        {
            let cents = (Int(row[1] ?? "0") ?? 0) * (shifted.contains(row[0] ?? "") ? 100 : 1)
            text +=
                "\(row[0] ?? ""),\(date),\(cents / 100).\(String(format: "%02d", cents % 100)),\(row[2] ?? ""),\(row[3] ?? "")\n"
        }
        return text
    }

    private func salesOf08(_ database: String) throws -> String? {
        try warehouse(database).rows(
            "SELECT total_sales_cents FROM store_report WHERE date = '2025-06-10' AND store_code = '08'", columns: 1
        ).first?.first ?? nil
    }

    private func lastRun(_ database: String) throws -> [String?] {
        try XCTUnwrap(
            try warehouse(database).rows(
                "SELECT id, status, alarms, alarms_accepted FROM ingest_run ORDER BY id DESC LIMIT 1", columns: 4
            ).first)
    }

    func testTheIngestGateWarnsHoldsAndAcceptsOnEachBackend() throws {
        let hold = try write("hold.toml", "[check]\non_ingest = \"hold\"\n")
        for database in try backends() {
            try GoldenReportTests.ingestSamples(into: database)
            let original = try salesOf08(database)
            let wrong = try write("sales_audit_0610.csv", try shiftedDay(database))

            // warn (the default): loaded, and the alarms logged: the day is an outlier, and its
            // associates no longer add up to it.
            let warned = try ddkpi(database, ["ingest", wrong])
            XCTAssertEqual(warned.status, 0, warned.stderr)
            XCTAssertTrue(warned.stderr.contains("alarm: outlier store 08 2025-06-10 totalSales"), warned.stderr)
            let run = try lastRun(database)
            XCTAssertEqual(run[1], "ok")
            XCTAssertEqual(run[2], "2")
            let byRun = try ddkpi(database, ["check", "--run", run[0] ?? "", "--format", "json"])
            XCTAssertEqual(byRun.status, 4, byRun.stderr)
            let found = try alarms(byRun.stdout)
            XCTAssertEqual(found.map { $0["kind"] as? String }, ["outlier", "reconcile"])
            XCTAssertEqual(found.first?["store"] as? String, "08")
            XCTAssertEqual(found.first?["run"] as? Int, Int(run[0] ?? ""))
            XCTAssertEqual(found.first?["file"] as? String, wrong)
            XCTAssertTrue(
                warned.stderr.contains("sales_audit_0610.csv: 2 alarms (see ddkpi check --run \(run[0] ?? ""))"),
                warned.stderr)
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", run[0] ?? ""]).status, 0)
            XCTAssertEqual(try salesOf08(database), original)

            // A JSON log carries every alarm as an event of its own.
            let logged = try ddkpi(database, ["ingest", "--log-format", "json", "--force", wrong])
            XCTAssertEqual(logged.status, 0, logged.stderr)
            let events = try logged.stderr.split(separator: "\n").map {
                try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
            }
            let alarmEvents = events.filter { $0["event"] as? String == "ingest.alarm" }
            XCTAssertEqual(alarmEvents.map { $0["kind"] as? String }, ["outlier", "reconcile"], logged.stderr)
            XCTAssertEqual(alarmEvents.first?["start"] as? String, "2025-06-10")
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", try lastRun(database)[0] ?? ""]).status, 0)
            XCTAssertEqual(try salesOf08(database), original)

            // hold: nothing written, the ledger says held.
            let held = try ddkpi(database, ["--config", hold, "ingest", "--force", wrong])
            XCTAssertEqual(held.status, 1, held.stderr)
            XCTAssertTrue(held.stdout.hasPrefix("held      sales_audit_0610.csv"), held.stdout)
            XCTAssertTrue(held.stdout.contains("0 duplicate, 1 held;"), held.stdout)
            XCTAssertEqual(try lastRun(database)[1...3], ["held", "2", "0"])
            XCTAssertEqual(try salesOf08(database), original)

            // --accept-alarms: loaded, and the ledger says the alarms were accepted.
            let accepted = try ddkpi(database, ["--config", hold, "ingest", "--force", "--accept-alarms", wrong])
            XCTAssertEqual(accepted.status, 0, accepted.stderr)
            XCTAssertEqual(try lastRun(database)[1...3], ["ok", "2", "1"])
            XCTAssertEqual(try salesOf08(database), original.map { String((Int($0) ?? 0) * 100) })
            XCTAssertEqual(try ddkpi(database, ["ingest", "--undo", try lastRun(database)[0] ?? ""]).status, 0)

            // Cron mode: the held file goes to quarantine with its reason and its alarms.
            let inbox = directory.appendingPathComponent("inbox-\(database.hasPrefix("postgres") ? "pg" : "sqlite")")
            try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: wrong, toPath: inbox.appendingPathComponent("sales_audit_0610.csv").path)
            let quarantine = inbox.appendingPathComponent("q").path
            let cron = try ddkpi(
                database,
                [
                    "--config", hold, "ingest", "--force", "--inbox", inbox.path, "--archive",
                    inbox.appendingPathComponent("a").path,
                    "--quarantine", quarantine,
                ])
            XCTAssertEqual(cron.status, 1, cron.stderr)
            let names = try FileManager.default.contentsOfDirectory(atPath: quarantine).sorted()
            XCTAssertEqual(
                names, ["sales_audit_0610.csv", "sales_audit_0610.csv.alarms.json", "sales_audit_0610.csv.reason.txt"])
            let json = try String(contentsOfFile: quarantine + "/sales_audit_0610.csv.alarms.json", encoding: .utf8)
            let quarantined = try alarms(json)
            XCTAssertEqual(quarantined.count, 2, json)
            XCTAssertEqual(quarantined.first?["date"] as? String, "2025-06-10")
            XCTAssertEqual(quarantined.first?["run"] as? Int, Int(try lastRun(database)[0] ?? ""))
            XCTAssertEqual(try salesOf08(database), original)
        }
    }

    /// Hold mode holds a file only for its own alarms (the audit's N4): the nightly sales files
    /// of 07-01..07-06 load although the event feeds stopped on 06-30, and a file that re-sends
    /// an accepted alarm's day unchanged loads too.
    func testHoldModeHoldsAFileOnlyForAlarmsOnWhatItChanged() throws {
        let hold = try write("hold.toml", "[check]\non_ingest = \"hold\"\n")
        let samples = TestPaths.packageRoot.appendingPathComponent(
            "SampleFeeds/feeds/sales_audit_2025H1_resend_corrected.csv")
        let lines = try String(contentsOf: samples, encoding: .utf8).components(separatedBy: .newlines).filter {
            !$0.isEmpty
        }
        for database in try backends() {
            try GoldenReportTests.ingestSamples(into: database)
            for day in 1...6 {
                // Each July day gets the values of the June day of the same weekday.
                let source = "2025-06-0\(day + 2),"
                let rows = lines.dropFirst().filter { $0.dropFirst(3).hasPrefix(source) }
                XCTAssertEqual(rows.count, 6, "\(source) in \(lines.count) lines")
                let text = ([lines[0]] + rows.map { $0.replacingOccurrences(of: source, with: "2025-07-0\(day),") })
                    .joined(separator: "\n")
                let file = try write("SalesAudit_2025-07-0\(day).csv", text + "\n")
                let nightly = try ddkpi(database, ["--config", hold, "ingest", file])
                XCTAssertEqual(nightly.status, 0, "07-0\(day): \(nightly.stdout) \(nightly.stderr)")
                XCTAssertFalse(nightly.stderr.contains("crm-intakes"), nightly.stderr)
            }

            let wrong = try write("sales_audit_0610.csv", try shiftedDay(database))
            let accepted = try ddkpi(
                database, ["--config", hold, "ingest", "--accept-alarms", "--log-format", "json", wrong])
            XCTAssertEqual(accepted.status, 0, accepted.stderr)
            XCTAssertTrue(accepted.stderr.contains("\"alarmsAccepted\":true"), "a JSON boolean: \(accepted.stderr)")
            // The re-send adds a usual Monday: store 08's 06-09 figures as 07-07's.
            let monday = try XCTUnwrap(lines.first { $0.hasPrefix("08,2025-06-09,") }).split(separator: ",")
            let resent = try write(
                "sales_audit_0610_resend.csv",
                try String(contentsOfFile: wrong, encoding: .utf8)
                    + "08,2025-07-07,\(monday[2...4].joined(separator: ","))\n")
            let again = try ddkpi(database, ["--config", hold, "ingest", resent])
            XCTAssertEqual(again.status, 0, again.stdout + again.stderr)
            XCTAssertTrue(again.stdout.hasPrefix("ok "), again.stdout)

            // A re-send is held for the alarms on the days it changes (an outlier and a reconcile
            // each): 06-11 of store 08, which re-sends its accepted 06-10 unchanged, and of store
            // 12, which re-sends nothing.
            let tenth = try String(contentsOfFile: wrong, encoding: .utf8).split(separator: "\n").filter {
                !$0.hasPrefix("12,")
            }
            let eleventh = try shiftedDay(database, date: "2025-06-11", shifted: ["08", "12"]).split(separator: "\n")
                .filter { $0.hasPrefix("08,") || $0.hasPrefix("12,") }
            let mixed = try write("sales_audit_0610_0611.csv", (tenth + eleventh).joined(separator: "\n") + "\n")
            let mixedHeld = try ddkpi(database, ["--config", hold, "ingest", mixed])
            XCTAssertEqual(mixedHeld.status, 1, mixedHeld.stdout + mixedHeld.stderr)
            let alarmed = mixedHeld.stderr.split(separator: "\n").filter { $0.contains("alarm: ") }
            XCTAssertEqual(alarmed.count, 4, mixedHeld.stderr)
            for store in ["08", "12"] {
                XCTAssertEqual(alarmed.filter { $0.contains("store \(store) 2025-06-11 ") }.count, 2, mixedHeld.stderr)
            }
        }
    }

    func testConfigurationErrorsNameTheKey() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        for (text, message) in [
            ("[check]\non_ingest = \"stop\"\n", "check.on_ingest: expected \"warn\" or \"hold\""),
            ("[check]\nclosed = [\"25-12\"]\n", "check.closed: expected days as \"MM-DD\" or \"YYYY-MM-DD\""),
            ("[check]\nzz = 1\n", "unknown setting \"check.zz\""),
        ] {
            let config = try write("bad.toml", text)
            let result = try ddkpi(database, ["--config", config, "check"])
            XCTAssertEqual(result.status, 2, result.stderr)
            XCTAssertTrue(result.stderr.contains(message), result.stderr)
        }
    }
}
