import KPI
import XCTest

@testable import Reports

final class HTMLReportTests: XCTestCase {
    func testStoreNamesAreEscaped() {
        let html = HTMLReport.render(
            ReportFixtures.review([
                ReportFixtures.scope("66", title: "<b>&\"x\"", sales: 1000),
                ReportFixtures.scope("67", title: "67 Other", sales: 900),
                ReportFixtures.scope("ALL", title: "All stores", sales: 1900),
            ]))
        XCTAssertFalse(html.contains("<b>&"))
        XCTAssertTrue(html.contains("<h2>&lt;b&gt;&amp;\"x\"</h2>"))
        XCTAssertTrue(html.contains(">&lt;b&gt;&amp;\"x\"</text>"), "the store's bar label in the SVG")
    }

    func testOnePageIsSelfContainedAndSemantic() {
        let html = HTMLReport.render(
            ReportFixtures.review([
                ReportFixtures.scope("08", title: "08 Natick (East)", sales: 282_914),
                ReportFixtures.scope("ALL", title: "All stores", sales: 282_914),
            ]))
        XCTAssertTrue(html.hasPrefix("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"UTF-8\"/>"))
        for absent in ["<script", "http:", "https:", "src=", "<link", "@import", "url("] {
            XCTAssertFalse(html.contains(absent), absent)
        }
        for present in [
            "<caption>08 Natick (East) — 2025Q2</caption>", "<th scope=\"col\">Metric</th>",
            "<th scope=\"row\">Sales</th>",
            "<th scope=\"colgroup\" colspan=\"3\">2025-04</th>", "break-before: page",
            "thead { display: table-header-group; }",
            "break-inside: avoid", "size: A4 landscape", "<td class=\"up-text\">▲ +5.3%</td>",
            "<td class=\"down-text\">▼ −9.1%</td>",
            "<td>$282,914</td>", "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>",
            "<h2>All stores — 2025Q2 at a glance</h2>", "<div class=\"card\"><h3>Sales</h3>",
            "counter(page) \" of \" counter(pages)", "<div class=\"table-box\"><table>",
            "max-width: 100%; height: auto;",
        ] {
            XCTAssertTrue(html.contains(present), present)
        }
        XCTAssertEqual(html.components(separatedBy: "<section class=\"scope page-start\">").count - 1, 2)
        XCTAssertLessThan(
            try XCTUnwrap(html.range(of: "<h2>08 Natick (East)</h2>")?.lowerBound),
            try XCTUnwrap(html.range(of: "<h2>All stores</h2>")?.lowerBound), "the detail in the one scope order")
        XCTAssertEqual(
            html.components(separatedBy: "<svg ").count - 1, 2,
            "the summary's chart and the store's (not repeated for the company)")
    }

    func testAStoreWithoutTargetsShowsDashesAndNoBar() {
        let html = HTMLReport.render(
            ReportFixtures.review([
                ReportFixtures.scope("30", title: "30 New store", sales: 5000, targets: false),
                ReportFixtures.scope("31", title: "31 Newer store", sales: 5000, targets: false),
                ReportFixtures.scope("ALL", title: "All stores", sales: 10000, targets: false),
            ]))
        XCTAssertTrue(
            html.contains(
                "<tr><th scope=\"row\">Sales</th><td>$15,000</td><td>—</td><td class=\"level\">—</td><td>$13,500</td>"))
        XCTAssertTrue(html.contains(">no target</text>"))
        XCTAssertFalse(html.contains("class=\"target\" "), "no target columns")
    }

    func testAnEmptyRegionRendersZerosWithoutFailing() {
        var empty = ReportFixtures.scope("region:North", title: "Region North", sales: 0, targets: false)
        for period in empty.periods.indices {
            for metric in empty.periods[period].metrics.indices {
                empty.periods[period].metrics[metric].actual =
                    empty.periods[period].metrics[metric].key == "totalSales" ? 0 : nil
                empty.periods[period].metrics[metric].ly = nil
                empty.periods[period].metrics[metric].pctVsLY = nil
            }
        }
        let html = HTMLReport.render(ReportFixtures.review([empty]))
        XCTAssertTrue(html.contains("<h2>Region North</h2>"))
        XCTAssertTrue(html.contains("<td>$0</td>"))
        XCTAssertFalse(html.contains("nan"))
        XCTAssertFalse(html.contains("per store"), "no stores, no stores' bars")
        XCTAssertTrue(HTMLReport.render(ReportFixtures.review([])).contains("<h1>Quarterly review 2025Q2</h1>"))
    }
}
