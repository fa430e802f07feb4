import Foundation
import TestSupport
import XCTest

/// `ddkpi alerts` through the binary on the samples (SPEC section 24): values from kpi's engine,
/// output, rule errors and exit codes.
final class AlertsCommandTests: XCTestCase {
    private static let samples = IngestedOnce(fileName: "alerts.sqlite") {
        try GoldenReportTests.ingestSamples(into: $0)
    }
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }
    override class func tearDown() { samples.remove() }

    private func ddkpi(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.ddkpi(["--db", try Self.samples.path()] + arguments, environment: ["NO_COLOR": "1"])
    }

    private func rules(_ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: "rules.toml", in: directory)
    }

    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
    }

    /// Every scope fires (`!=` a value nobody has), so every value can be held against kpi JSON's.
    func testValuesAreKPIJSONsToTheLastDigit() throws {
        let cases: [(metric: String, period: String, key: String, scope: String)] = [
            ("totalSales", "MTD", "projectedPctToTarget", "scope = \"stores\""),
            ("totalSales", "QTD", "full.neededPerDay", "scope = \"regions\""),
            ("totalSales", "YTD", "pctVsLy", "scope = \"all\""),
            ("avgAds", "WTD", "actual", "stores = [\"08\", \"10\"]"),
            ("upt", "MTD", "pctToTarget", "region = \"East\""),
            ("creditApps", "QTD", "full.projected", "scope = \"stores\""),
        ]
        var text = ""
        for (index, item) in cases.enumerated() {
            text += """
                [[alert]]
                name = "rule \(index)"
                \(item.scope)
                metric = "\(item.metric)"
                period = "\(item.period)"
                when = "\(item.key) != 123456.789"

                """
        }
        let file = try rules(text)
        let alerts = try ddkpi(["alerts", "--rules", file, "--as-of", "2025-06-15", "--format", "json"])
        XCTAssertEqual(alerts.status, 4, alerts.stderr)
        let kpi = try ddkpi(["kpi", "--as-of", "2025-06-15", "--format", "json"])
        XCTAssertEqual(kpi.status, 0, kpi.stderr)
        var values: [String: Any] = [:]
        for scope in try XCTUnwrap(try json(kpi.stdout)["scopes"] as? [[String: Any]]) {
            let name = try XCTUnwrap(scope["scope"] as? String)
            for (period, body) in try XCTUnwrap(scope["periods"] as? [String: [String: Any]]) {
                for (metric, fields) in try XCTUnwrap(body["metrics"] as? [String: [String: Any]]) {
                    for (key, value) in fields {
                        if let full = value as? [String: Any] {
                            for (inner, number) in full { values["\(name)|\(period)|\(metric)|full.\(inner)"] = number }
                        } else {
                            values["\(name)|\(period)|\(metric)|\(key)"] = value
                        }
                    }
                }
            }
        }
        let found = try XCTUnwrap(try json(alerts.stdout)["alerts"] as? [[String: Any]])
        XCTAssertEqual(Set(found.compactMap { $0["rule"] as? String }).count, cases.count, alerts.stdout)
        for alert in found {
            let rule = try XCTUnwrap(alert["rule"] as? String)
            let index = try XCTUnwrap(Int(rule.dropFirst("rule ".count)))
            let item = cases[index]
            let scope = try XCTUnwrap(alert["scope"] as? String)
            XCTAssertEqual(alert["metric"] as? String, item.metric)
            XCTAssertEqual(alert["period"] as? String, item.period)
            XCTAssertEqual(alert["state"] as? String, "firing")
            let expected = try XCTUnwrap(
                values["\(scope)|\(item.period)|\(item.metric)|\(item.key)"] as? Double, "\(scope) \(item)")
            XCTAssertEqual(try XCTUnwrap(alert["value"] as? Double), expected, "\(scope) \(item)")
        }
        let scopes = { (index: Int) in
            found.filter { $0["rule"] as? String == "rule \(index)" }.compactMap { $0["scope"] as? String }
        }
        XCTAssertEqual(scopes(0), ["08", "10", "12", "21", "23", "27"])
        XCTAssertEqual(scopes(2), ["ALL"])
        XCTAssertEqual(scopes(3), ["08", "10"])
        XCTAssertEqual(scopes(4), ["region:East"])
        XCTAssertTrue(scopes(1).allSatisfy { $0.hasPrefix("region:") } && !scopes(1).isEmpty)
    }

    func testOutputAndExitCodes() throws {
        let file = try rules(
            """
            [[alert]]
            name = "behind pace"
            stores = ["21"]
            metric = "totalSales"
            period = "MTD"
            when = "projectedPctToTarget < -0.02"
            [[alert]]
            name = "far ahead"
            scope = "all"
            metric = "totalSales"
            period = "MTD"
            when = "projectedPctToTarget > 5"
            """)
        let firing = try ddkpi(["alerts", "--rules", file, "--as-of", "2025-06-15"])
        XCTAssertEqual(firing.status, 4, firing.stderr)
        XCTAssertEqual(
            firing.stdout,
            """
            Alerts as of 2025-06-15: 1 firing, 1 shown firing, 0 resolved
            state   rule         scope  metric      period                 value  when
            firing  behind pace  21     totalSales  MTD     -0.04434338185890263  projectedPctToTarget < -0.02

            """)
        let json = try ddkpi(["alerts", "--rules", file, "--as-of", "2025-06-15", "--format", "json"])
        XCTAssertEqual(
            json.stdout,
            """
            {"asOf":"2025-06-15","alerts":[
            {"rule":"behind pace","scope":"21","metric":"totalSales","period":"MTD","value":-0.04434338185890263,"threshold":-0.02,"state":"firing"}
            ]}

            """)
        let quiet = try rules(
            "[[alert]]\nname = \"far ahead\"\nscope = \"all\"\nmetric = \"totalSales\"\nperiod = \"MTD\"\nwhen = \"projectedPctToTarget > 5\"\n"
        )
        let none = try ddkpi(["alerts", "--rules", quiet, "--as-of", "2025-06-15"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(none.stdout, "Alerts as of 2025-06-15: 0 firing, nothing to notify\n")
        let noneJSON = try ddkpi(["alerts", "--rules", quiet, "--format", "json"])
        XCTAssertEqual(noneJSON.stdout, "{\"asOf\":\"2025-06-30\",\"alerts\":[]}\n")
    }

    func testAlarmAndFreshnessRules() throws {
        let file = try rules(
            """
            [[alert]]
            name = "wrong data"
            kind = "alarms"
            when = "count > 0"
            [[alert]]
            name = "missing feeds"
            kind = "freshness"
            when = "missing"
            [[alert]]
            name = "late feeds"
            kind = "freshness"
            when = "late"
            """)
        let result = try ddkpi(["alerts", "--rules", file, "--as-of", "2025-01-05", "--format", "json"])
        XCTAssertEqual(result.status, 4, result.stderr)
        let alerts = try XCTUnwrap(try json(result.stdout)["alerts"] as? [[String: Any]])
        let alarms = alerts.filter { $0["rule"] as? String == "wrong data" }
        XCTAssertEqual(alarms.count, 1, result.stdout)
        XCTAssertEqual(alarms.first?["scope"] as? String, "10")
        XCTAssertEqual(alarms.first?["value"] as? Int, 1)
        XCTAssertTrue(alarms.first?["metric"] is NSNull)
        XCTAssertTrue(alarms.first?["period"] is NSNull)
        XCTAssertTrue(alerts.filter { $0["rule"] as? String == "missing feeds" }.isEmpty, result.stdout)
        // On 2025-07-10 every daily feed is 10 days old: late; the event feeds judged chain-wide.
        let late = try ddkpi(["alerts", "--rules", file, "--as-of", "2025-07-10", "--format", "json"])
        let stale = try XCTUnwrap(try json(late.stdout)["alerts"] as? [[String: Any]]).filter {
            $0["rule"] as? String == "late feeds"
        }
        XCTAssertTrue(stale.contains { $0["scope"] as? String == "ALL" && $0["metric"] as? String == "credit-apps" })
        XCTAssertTrue(stale.contains { $0["scope"] as? String == "08" && $0["metric"] as? String == "sales-audit" })
        XCTAssertTrue(stale.allSatisfy { $0["value"] as? String == "late" && $0["threshold"] as? String == "late" })
    }

    func testRuleErrorsExit2NamingRuleAndKey() throws {
        let bad = try rules(
            "[[alert]]\nname = \"pace\"\nscope = \"stores\"\nmetric = \"upt\"\nperiod = \"MTD\"\nwhen = \"projected < 0\"\n"
        )
        let result = try ddkpi(["alerts", "--rules", bad])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("rule \"pace\": when = \"projected < 0\": expected a key upt has in MTD"),
            result.stderr)
        let unknown = try rules(
            "[[alert]]\nname = \"x\"\nstores = [\"99\"]\nmetric = \"upt\"\nperiod = \"MTD\"\nwhen = \"actual < 0\"\n")
        let missing = try ddkpi(["alerts", "--rules", unknown])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(
            missing.stderr.contains("rule \"x\": stores: \"99\" is not a store of the warehouse"), missing.stderr)
        let config = try TestPaths.write(
            Array("[[alert]]\nname = \"y\"\nkind = \"nightly\"\nwhen = \"late\"\n".utf8), named: "ddkpi.toml",
            in: directory)
        let configured = try ddkpi(["--config", config, "alerts"])
        XCTAssertEqual(configured.status, 2)
        XCTAssertTrue(configured.stderr.contains("rule \"y\": kind = \"nightly\": expected"), configured.stderr)

        // A metric of a feed the company does not have could never fire: a rule error too.
        let salesOnly = try TestPaths.write(
            Array("[feeds]\nenabled = [\"sales-audit\"]\n".utf8), named: "sales-only.toml", in: directory)
        let apps = try rules(
            "[[alert]]\nname = \"apps\"\nscope = \"all\"\nmetric = \"creditApps\"\nperiod = \"MTD\"\nwhen = \"actual < 1\"\n"
        )
        let disabled = try ddkpi(["--config", salesOnly, "alerts", "--rules", apps])
        XCTAssertEqual(disabled.status, 2)
        XCTAssertTrue(
            disabled.stderr.contains(
                "rule \"apps\": metric = \"creditApps\": expected a metric of a feed in [feeds] enabled (sales-audit); "
                    + "creditApps is a metric of credit-apps"), disabled.stderr)
    }
}
