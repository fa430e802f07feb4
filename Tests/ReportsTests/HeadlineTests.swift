import CivilCalendar
import XCTest

@testable import KPI
@testable import Reports

/// The review's opening story (SPEC section 20): one sentence, the misses, one page for one store;
/// and what keeps a printed table readable.
final class HeadlineTests: XCTestCase {
    func testTheSentenceSaysBehindAndAboveFromTheQuarterShown() {
        let scope = ReportFixtures.scope("region:East", title: "Region East", sales: 1_000)
        XCTAssertEqual(
            Headline.sentence(scope), "Region East is 9.1 % behind target and 11.1 % above last year, in 2025Q2")
    }

    func testAScopeWithoutTargetsSaysSo() {
        let scope = ReportFixtures.scope("08", title: "08 Natick (East)", sales: 1_000, targets: false)
        XCTAssertEqual(
            Headline.sentence(scope), "08 Natick (East) has no target and is 11.1 % above last year, in 2025Q2")
    }

    func testTheSummaryNamesTheStoresFurthestBehindWorstFirst() {
        var behind = ReportFixtures.scope("10", title: "10 Framingham (East)", sales: 1_000)
        behind.periods[3].metrics[0].pctToTarget = -0.2
        let html = HTMLReport.render(
            ReportFixtures.review([
                ReportFixtures.scope("08", title: "08 Natick (East)", sales: 1_000), behind,
                ReportFixtures.scope("region:East", title: "Region East", sales: 2_000),
            ]))
        XCTAssertTrue(
            html.contains(
                "<p class=\"misses\">Stores furthest behind target: 10 Framingham (East) "
                    + "<span class=\"down-text\">▼ −20.0%</span>, 08 Natick (East) "),
            html)
        XCTAssertTrue(html.contains("<p class=\"headline\">Region East is 9.1 % behind target"), html)
    }

    func testAClosedStoreIsTaggedInTheRankings() {
        var closed = ReportFixtures.scope("10", title: "10 Framingham (East)", sales: 1_000)
        closed.isClosed = true
        closed.periods[3].metrics[0].pctToTarget = -0.2
        let html = HTMLReport.render(
            ReportFixtures.review([
                ReportFixtures.scope("08", title: "08 Natick (East)", sales: 1_000), closed,
                ReportFixtures.scope("region:East", title: "Region East", sales: 2_000),
            ]))
        XCTAssertTrue(html.contains("Stores furthest behind target: 10 Framingham (East) · closed "), html)
        XCTAssertTrue(html.contains(">10 Framingham (East) · closed</text>"), "the ranking chart's label")
        XCTAssertFalse(html.contains("08 Natick (East) · closed"))
    }

    func testAOneStoreReviewKeepsSummaryAndDetailOnOnePage() {
        let html = HTMLReport.render(
            ReportFixtures.review([ReportFixtures.scope("08", title: "08 Natick (East)", sales: 1_000)]))
        XCTAssertFalse(html.contains("<section class=\"scope page-start\">"), "no page break after the summary")
        XCTAssertEqual(html.components(separatedBy: "<svg ").count - 1, 1, "the monthly chart once, beside its table")
    }

    func testAPrintedTableRepeatsItsTitleInItsHeader() {
        let html = HTMLReport.render(
            ReportFixtures.review([ReportFixtures.scope("08", title: "08 Natick (East)", sales: 1_000)]))
        XCTAssertTrue(
            html.contains(
                "<thead><tr class=\"printed-title\"><th scope=\"colgroup\" colspan=\"6\">08 Natick (East) — 2025Q2</th></tr>"
            ),
            html)
        XCTAssertTrue(html.contains("caption { display: none; } tr.printed-title { display: table-row; }"))
    }

    func testAnActualCutBeforeTheAsOfDaySaysWhereItStops() {
        var value = MetricValue(key: "creditApps", actual: 45)
        XCTAssertEqual(NumberText.actual(value, .count), "45")
        value.dataThrough = CivilDate(year: 2025, month: 6, day: 10)
        XCTAssertEqual(NumberText.actual(value, .count), "45 to 06-10")
        value.markNoData()
        XCTAssertEqual(NumberText.actual(value, .count), "no data")
    }

    func testACountTargetKeepsItsDecimal() {
        XCTAssertEqual(NumberText.target(1.5, .count), "1.5")
        XCTAssertEqual(NumberText.target(2, .count), "2")
        XCTAssertEqual(NumberText.target(1_234.5, .money), "$1,235")
    }
}
