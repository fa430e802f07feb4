import CivilCalendar
import XCTest

@testable import KPI
@testable import Reports

/// SPEC section 26's printed amounts: in CSV and JSON money has at most two decimals, a count's
/// target or projection at most six, and ratios and percentages their shortest round-trip form.
final class PrintedAmountTests: XCTestCase {
    func testAmountsByFormat() {
        XCTAssertEqual(NumberText.amount(419_833.050_000_000_05, .money), "419833.05")
        XCTAssertEqual(NumberText.amount(12.5, .money), "12.5")
        XCTAssertEqual(NumberText.amount(3, .money), "3")
        XCTAssertEqual(NumberText.amount(-0.004, .money), "0")
        XCTAssertEqual(NumberText.amount(-1_234.567, .money), "-1234.57")
        XCTAssertEqual(NumberText.amount(419_833.050_000_000_05, .count), "419833.05")
        XCTAssertEqual(NumberText.amount(100.0 / 3.0, .count), "33.333333")
        XCTAssertEqual(NumberText.amount(2.000_000_4, .count), "2")
        XCTAssertEqual(NumberText.amount(0.000_001_5, .count), "0.000002")
        XCTAssertEqual(NumberText.amount(90, .count), "90")
        XCTAssertEqual(NumberText.amount(1.0 / 3.0, .decimal), "0.3333333333333333", "ratios stay exact")
        XCTAssertEqual(NumberText.amount(0.1 + 0.2, .percent), "0.30000000000000004")
        XCTAssertEqual(NumberText.amount(331.123_456_789, .moneyWithCents), "331.123456789")
        XCTAssertEqual(NumberText.amount(1e20, .money), "1e+20", "too large to round: shortest form")
        XCTAssertEqual(NumberText.amount(.nan, .count), "nan")
    }

    /// A workbook's target cell holds the number CSV prints.
    func testRoundedIsTheNumberTheAmountPrints() {
        XCTAssertEqual(NumberText.rounded(419_833.050_000_000_05, .money), 419_833.05)
        XCTAssertEqual(NumberText.rounded(467.999_999_999_999_9, .count), 468)
        XCTAssertEqual(NumberText.rounded(100.0 / 3.0, .count), 33.333_333)
        XCTAssertEqual(NumberText.rounded(1.0 / 3.0, .percent), 1.0 / 3.0)
        for value in [0.1 + 0.2, 648.000_000_000_1, 1_000.0 / 7.0, -12.345_678_9, 98_765.432_1] {
            for format in [MetricFormat.money, .count] {
                XCTAssertEqual(
                    NumberText.rounded(value, format), Double(NumberText.amount(value, format)), "\(value) \(format)")
            }
        }
    }

    /// Explain's JSON keeps the exact value: `plain` without a format is unchanged.
    func testPlainKeepsTheShortestRoundTripForm() {
        XCTAssertEqual(NumberText.plain(419_833.050_000_000_05), "419833.05000000005")
        XCTAssertEqual(NumberText.plain(100.0 / 3.0, .count), "33.333333333333336")
    }

    /// A kpi with a prorated money target, a count's prorated target and projection, and a
    /// ratio's long target, as its CSV and JSON print them.
    func testReportsPrintTargetsAndProjectionsRounded() throws {
        let range = DateRange(
            start: CivilDate(year: 2025, month: 6, day: 1), end: CivilDate(year: 2025, month: 6, day: 15))
        let projection = { (value: Double, pctToTarget: Double) in
            var projection = Projection(actual: value, elapsedDays: 1, fullDays: 1)
            projection.pctToTarget = pctToTarget
            return projection
        }
        let metrics = MetricDefinition.all.map { metric -> MetricValue in
            switch metric.key {
            case "totalSales":
                var value = MetricValue(
                    key: metric.key, actual: 200_000.004, target: 419_833.050_000_000_05, pctToTarget: -0.5, ly: 1.006,
                    pctVsLY: 0.1)
                value.projection = projection(400_000.008_000_000_03, -0.25)
                return value
            case "creditApps":
                var value = MetricValue(
                    key: metric.key, actual: 10, target: 100.0 / 3.0, pctToTarget: -0.7, ly: 7, pctVsLY: 0.125)
                value.projection = projection(10 * (1_000.0 / 7.0) / (100.0 / 3.0), 0.1 + 0.2)
                return value
            default:
                return MetricValue(key: metric.key, actual: 1.0 / 3.0, target: 2.0 / 3.0, pctToTarget: -0.5, ly: nil)
            }
        }
        let report = KPIReport(
            kind: .kpi(asOf: "2025-06-15"),
            scopes: [
                ScopeValues(
                    scope: "ALL", title: "All stores",
                    periods: [PeriodValues(label: "MTD", range: range, lastYear: nil, metrics: metrics, whole: nil)])
            ])
        let csv = ReportRenderer().render(report, as: .csv).split(separator: "\n").map(String.init)
        XCTAssertEqual(
            csv.first { $0.contains(",totalSales,") },
            "ALL,MTD,2025-06-01,2025-06-15,totalSales,200000,419833.05,-0.5,1.01,0.1,400000.01,-0.25")
        XCTAssertEqual(
            csv.first { $0.contains(",creditApps,") },
            "ALL,MTD,2025-06-01,2025-06-15,creditApps,10,33.333333,-0.7,7,0.125,42.857143,0.30000000000000004")
        XCTAssertEqual(
            csv.first { $0.contains(",upt,") },
            "ALL,MTD,2025-06-01,2025-06-15,upt,0.3333333333333333,0.6666666666666666,-0.5,,,,")

        let json = ReportRenderer().render(report, as: .json)
        XCTAssertTrue(json.contains("\"totalSales\":{\"actual\":200000,\"target\":419833.05,"), json)
        XCTAssertTrue(json.contains("\"projected\":400000.01,"), json)
        XCTAssertTrue(json.contains("\"creditApps\":{\"actual\":10,\"target\":33.333333,"), json)
        XCTAssertTrue(json.contains("\"projected\":42.857143,"), json)
        XCTAssertFalse(json.contains("419833.05000000005"), json)
    }

    /// A running review's `full` amounts: money to the cent, a count's to six decimals.
    func testTheFullPeriodAmountsAreRounded() throws {
        let quarter = DateRange(
            start: CivilDate(year: 2025, month: 4, day: 1), end: CivilDate(year: 2025, month: 6, day: 30))
        let cut = DateRange(start: quarter.start, end: CivilDate(year: 2025, month: 6, day: 15))
        let metrics = MetricDefinition.all.map { metric -> MetricValue in
            var value = MetricValue(key: metric.key, actual: nil, target: nil, pctToTarget: nil, ly: nil)
            switch metric.key {
            case "totalSales":
                value.actual = 200_000.004
                value.full = FullPeriodGoal(
                    end: quarter.end, target: 419_833.050_000_000_05, actual: 200_000.004, projection: nil,
                    elapsedDays: 15, remainingDays: 15)
            case "creditApps":
                value.actual = 10
                value.full = FullPeriodGoal(
                    end: quarter.end, target: 1_000.0 / 7.0, actual: 10, projection: nil, elapsedDays: 15,
                    remainingDays: 15)
            default: break
            }
            return value
        }
        let report = KPIReport(
            kind: .review(quarter: "2025Q2"),
            scopes: [
                ScopeValues(
                    scope: "ALL", title: "All stores",
                    periods: [
                        PeriodValues(label: "2025Q2", range: cut, lastYear: nil, metrics: metrics, whole: quarter)
                    ])
            ])
        let json = ReportRenderer().render(report, as: .json)
        XCTAssertTrue(
            json.contains(
                "\"full\":{\"end\":\"2025-06-30\",\"target\":419833.05,\"projected\":null,"
                    + "\"projectedPctToTarget\":null,\"needed\":219833.05,\"neededPerDay\":14655.54,\"remainingDays\":15}"
            ),
            json)
        XCTAssertTrue(
            json.contains(
                "\"full\":{\"end\":\"2025-06-30\",\"target\":142.857143,\"projected\":null,"
                    + "\"projectedPctToTarget\":null,\"needed\":132.857143,\"neededPerDay\":8.857143,\"remainingDays\":15}"
            ),
            json)
        let csv = ReportRenderer().render(report, as: .csv)
        XCTAssertTrue(csv.contains("ALL,2025Q2,totalSales,200000,,,,,2025-06-15,419833.05,,219833.05,14655.54\n"), csv)
        XCTAssertTrue(csv.contains("ALL,2025Q2,creditApps,10,,,,,2025-06-15,142.857143,,132.857143,8.857143\n"), csv)
    }
}
