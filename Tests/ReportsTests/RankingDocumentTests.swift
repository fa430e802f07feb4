import CivilCalendar
import Foundation
import KPI
import SheetStream
import TestSupport
import XCTest

@testable import Reports

/// The ranked reports' documents, from hand-made tables.
final class RankingDocumentTests: XCTestCase {
    private func document(names: [String]) -> RankingDocument {
        let columns: [RankingTable.Column] = [
            .init(title: "#", kind: .number(.count), width: 5), .init(title: "Vendor", kind: .text, width: 20),
            .init(title: "Sales", kind: .number(.money), width: 12), .init(title: "vs LY", kind: .change, width: 9),
        ]
        let rows: [[RankingTable.Cell]] = names.enumerated().map { index, name in
            [.number(Double(index + 1)), .text(name), .number(1234.5), .number(index == 0 ? 0.25 : nil)]
        }
        return RankingDocument(
            title: "Sales by vendor", period: "2025-04-01 to 2025-06-30",
            date: CivilDate(year: 2025, month: 6, day: 30),
            tables: [
                RankingTable(
                    title: "08 <b>&\"x\"", caption: "08 <b>&\"x\" — vendors", columns: columns, rows: rows,
                    rowHeaderColumn: 1, emptyText: "No sales."),
                RankingTable(
                    title: "Empty: region?", caption: "nothing", columns: columns, rows: [], rowHeaderColumn: 1,
                    emptyText: "No sales."),
            ])
    }

    func testThePageEscapesNamesAndSaysWhenATableIsEmpty() {
        let page = RankingPage.render(document(names: ["<b>&\"x\"", "Seiko"]))
        XCTAssertTrue(page.contains("<h2>08 &lt;b&gt;&amp;\"x\"</h2>"), page)
        XCTAssertTrue(page.contains("<th scope=\"row\" class=\"text\">&lt;b&gt;&amp;\"x\"</th>"), page)
        XCTAssertFalse(page.contains("<b>&"))
        XCTAssertTrue(page.contains("<td class=\"up-text\">▲ +25.0%</td>"), page)
        XCTAssertTrue(page.contains("<p>No sales.</p>"))
        XCTAssertFalse(page.contains("<script") || page.contains("http"), "self-contained")
    }

    func testTheWorkbookHasASheetPerTableWithChangeTextBesideTheNumber() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("rankings.xlsx").path
        try RankingWorkbook.write(document(names: ["<b>&\"x\"", "Seiko"]), to: path)
        let workbook = try SpreadsheetFile.open(path: path)
        XCTAssertEqual(
            workbook.sheets.map(\.name), ["08 <b>&\"x\"", "Empty_ region_"], "< > & \" are allowed; : ? are not")
        var rows: [[Cell]] = []
        try workbook.readRows(of: workbook.sheets[0]) { rows.append($0.cells) }
        XCTAssertEqual(rows.count, 5, "title, period, header and two rows")
        XCTAssertEqual(rows[0], [.string("08 <b>&\"x\" — vendors")], "the sheet's title")
        XCTAssertEqual(rows[1], [.string("2025-04-01 to 2025-06-30")], "its period")
        XCTAssertEqual(
            rows[2], [.string("#"), .string("Vendor"), .string("Sales"), .string("vs LY"), .string("vs LY ▲/▼")])
        XCTAssertEqual(
            rows[3], [.number(1), .string("<b>&\"x\""), .number(1234.5), .number(0.25), .string("▲ +25.0%")])
        XCTAssertEqual(rows[4].prefix(3), [.number(2), .string("Seiko"), .number(1234.5)])
        XCTAssertEqual(rows[4].last, .string("—"), "no LY: the ▲/▼ text says so, the number cell is empty")
    }
}
