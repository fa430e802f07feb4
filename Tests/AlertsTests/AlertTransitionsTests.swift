import Alerts
import CivilCalendar
import TOMLKit
import Warehouse
import XCTest

/// Which alerts notify (SPEC section 24): those that start firing, and once those that resolve;
/// only rules evaluated in the run change state.
final class AlertTransitionsTests: XCTestCase {
    private let rules = try? AlertRules.parse(
        TOMLTable(
            string: """
                [[alert]]
                name = "late"
                kind = "freshness"
                when = "late"
                notify = ["webhook:ops"]
                """)["alert"], file: "rules.toml")

    private func alert(_ scope: String, _ state: Alert.State, rule: AlertRule) -> Alert {
        Alert(
            rule: rule.name, definition: rule.definition, scope: scope, metric: "sales-audit", period: nil,
            value: .word(state == .firing ? "late" : "ok"), threshold: .word("late"), test: "late or missing",
            state: state)
    }

    func testStartsResolvesAndLeavesOtherRulesAlone() throws {
        let rule = try XCTUnwrap(rules?.first)
        let asOf = try XCTUnwrap(CivilDate(iso8601: "2025-07-10"))
        let evaluation = AlertEvaluation(
            asOf: asOf,
            observations: [
                alert("08", .firing, rule: rule), alert("10", .firing, rule: rule), alert("12", .resolved, rule: rule),
            ],
            evaluatedRules: [rule.name: rule.definition])
        let remembered = [
            AlertStateRow(key: alert("10", .firing, rule: rule).stateKey, firingSince: "2025-07-09", value: "\"late\""),
            AlertStateRow(key: alert("12", .firing, rule: rule).stateKey, firingSince: "2025-07-09", value: "\"late\""),
            AlertStateRow(
                key: AlertStateKey(rule: "other", definition: "x", scope: "08", metric: ""), firingSince: "2025-07-01",
                value: nil),
            AlertStateRow(
                key: AlertStateKey(rule: "late", definition: "old definition", scope: "21", metric: "sales-audit"),
                firingSince: "2025-07-01", value: nil),
        ]
        let transitions = AlertTransitions(evaluation, rules: [rule], remembered: remembered)
        XCTAssertEqual(transitions.started.map(\.scope), ["08"])
        XCTAssertEqual(transitions.resolved.map(\.scope), ["12"])
        XCTAssertEqual(transitions.resolved.first?.state, .resolved)
        XCTAssertEqual(transitions.startedRows(asOf: asOf).first?.firingSince, "2025-07-10")
        let messages = AlertMessages.messages(for: transitions.toNotify, rules: [rule], asOf: asOf)
        XCTAssertEqual(messages.map(\.target), ["webhook:ops", "webhook:ops"])
        XCTAssertEqual(
            messages.first?.body,
            "{\"asOf\":\"2025-07-10\",\"rule\":\"late\",\"scope\":\"08\",\"metric\":\"sales-audit\",\"period\":null,"
                + "\"value\":\"late\",\"threshold\":\"late\",\"state\":\"firing\"}")
    }
}
