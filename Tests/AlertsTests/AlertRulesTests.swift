import Alerts
import TOMLKit
import XCTest

/// `[[alert]]` rules (SPEC section 24): what parses, and errors that name the rule and the key.
final class AlertRulesTests: XCTestCase {
    private func parse(_ text: String) throws -> [AlertRule] {
        try AlertRules.parse(try TOMLTable(string: text)["alert"], file: "rules.toml")
    }

    private func error(_ text: String) -> String {
        do {
            _ = try parse(text)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    func testTheSpecExampleParses() throws {
        let rules = try parse(
            """
            [[alert]]
            name = "behind pace"
            scope = "stores"
            metric = "totalSales"
            period = "MTD"
            when = "projectedPctToTarget < -0.05"
            notify = ["email:dir08@example.com", "webhook:ops"]
            [[alert]]
            name = "wrong data"
            kind = "alarms"
            when = "count > 0"
            notify = ["webhook:ops"]
            [[alert]]
            name = "late feeds"
            kind = "freshness"
            when = "late"
            notify = ["webhook:ops"]
            [[alert]]
            name = "need"
            stores = ["08"]
            metric = "totalSales"
            period = "QTD"
            when = "full.neededPerDay >= 1200"
            """)
        XCTAssertEqual(rules.count, 4)
        guard case .metric(let watch) = rules[0].kind else { return XCTFail("not a metric rule") }
        XCTAssertEqual(watch.scope, .stores)
        XCTAssertEqual(watch.condition.key, "projectedPctToTarget")
        XCTAssertEqual(watch.condition.comparison, .less)
        XCTAssertEqual(watch.condition.threshold, -0.05)
        XCTAssertEqual(rules[0].notify, ["email:dir08@example.com", "webhook:ops"])
        XCTAssertEqual(
            rules[0].definition,
            "metric; scope stores; metric totalSales; period MTD; when projectedPctToTarget < -0.05")
        XCTAssertEqual(rules[1].kind, .alarms(try XCTUnwrap(AlertCondition("count > 0"))))
        XCTAssertEqual(rules[2].kind, .freshness(missingOnly: false))
        guard case .metric(let need) = rules[3].kind else { return XCTFail("not a metric rule") }
        XCTAssertEqual(need.scope, .storeList(["08"]))
        XCTAssertEqual(need.condition.key, "full.neededPerDay")
        XCTAssertEqual(need.condition.comparison, .greaterOrEqual)
    }

    func testErrorsNameTheRuleAndTheKey() {
        let metric = "[[alert]]\nname = \"r\"\nscope = \"stores\"\nmetric = \"totalSales\"\nperiod = \"MTD\"\n"
        XCTAssertEqual(
            error(metric + "when = \"pace < 0\""),
            "rules.toml: rule \"r\": when = \"pace < 0\": expected a key totalSales has in MTD: actual, target, "
                + "pctToTarget, ly, pctVsLy, projected, projectedPctToTarget, full.target, full.projected, "
                + "full.projectedPctToTarget, full.needed, full.neededPerDay, full.remainingDays")
        XCTAssertEqual(
            error(metric.replacingOccurrences(of: "totalSales", with: "upt") + "when = \"projected < 0\""),
            "rules.toml: rule \"r\": when = \"projected < 0\": expected a key upt has in MTD: actual, target, "
                + "pctToTarget, ly, pctVsLy")
        XCTAssertTrue(
            error(metric.replacingOccurrences(of: "MTD", with: "WTD") + "when = \"full.needed > 0\"")
                .hasPrefix("rules.toml: rule \"r\": when = \"full.needed > 0\": expected a key totalSales has in WTD"))
        XCTAssertEqual(
            error(metric + "when = \"actual < lots\""),
            "rules.toml: rule \"r\": when = \"actual < lots\": expected a kpi JSON key, a comparison (<, <=, >, >=, "
                + "==, !=) and a number")
        XCTAssertTrue(
            error(metric.replacingOccurrences(of: "totalSales", with: "sales") + "when = \"actual < 1\"")
                .hasPrefix("rules.toml: rule \"r\": metric = \"sales\": expected a kpi metric: totalSales, "))
        XCTAssertEqual(
            error(metric.replacingOccurrences(of: "MTD", with: "month") + "when = \"actual < 1\""),
            "rules.toml: rule \"r\": period = \"month\": expected WTD, MTD, QTD, YTD")
        XCTAssertEqual(
            error(metric.replacingOccurrences(of: "\"stores\"", with: "\"store\"") + "when = \"actual < 1\""),
            "rules.toml: rule \"r\": scope = \"store\": expected \"stores\", \"regions\", \"all\" or \"comp:ALL\"")
        XCTAssertEqual(
            error("[[alert]]\nname = \"f\"\nkind = \"freshness\"\nwhen = \"stale\""),
            "rules.toml: rule \"f\": when = \"stale\": expected \"late\" (late or missing) or \"missing\"")
        XCTAssertEqual(
            error("[[alert]]\nname = \"a\"\nkind = \"alarms\"\nwhen = \"alarms > 0\""),
            "rules.toml: rule \"a\": when = \"alarms > 0\": expected count, a comparison and a number, such as "
                + "\"count > 0\"")
        XCTAssertEqual(
            error("[[alert]]\nname = \"a\"\nkind = \"alarms\"\nwhen = \"count > 0\"\nnotify = [\"sms:555\"]"),
            "rules.toml: rule \"a\": notify = \"sms:555\": expected targets such as \"email:dir08@example.com\" "
                + "or \"webhook:ops\"")
        XCTAssertEqual(
            error("[[alert]]\nname = \"a\"\nkind = \"alarms\"\nwhen = \"count > 0\"\ncolour = \"red\""),
            "rules.toml: rule \"a\": colour: expected one of the keys name, kind, scope, stores, region, metric, "
                + "period, when, notify")
        XCTAssertEqual(
            error("[[alert]]\nkind = \"alarms\"\nwhen = \"count > 0\""),
            "rules.toml: [[alert]] number 1: name: expected the rule's name, such as \"behind pace\"")
        XCTAssertEqual(
            error(
                "[[alert]]\nname = \"a\"\nkind = \"alarms\"\nwhen = \"count > 0\"\n[[alert]]\nname = \"a\"\nkind = \"alarms\"\nwhen = \"count > 1\""
            ),
            "rules.toml: rule \"a\": name: an earlier rule has this name; names must differ")
    }

    func testConditions() throws {
        let condition = try XCTUnwrap(AlertCondition("full.neededPerDay>=1200.5"))
        XCTAssertEqual(condition.text, "full.neededPerDay >= 1200.5")
        XCTAssertTrue(condition.holds(1200.5))
        XCTAssertFalse(condition.holds(1200.49))
        XCTAssertNil(AlertCondition("a b < 1"))
        XCTAssertNil(AlertCondition("< 1"))
        XCTAssertNil(AlertCondition("x < nan"))
        XCTAssertTrue(try XCTUnwrap(AlertCondition("x != 0")).holds(1))
    }
}
