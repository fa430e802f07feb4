import Foundation
import KPI
import SheetStream
import TestSupport
import XCTest

@testable import Reports

final class XLSXReportTests: XCTestCase {
    /// Writes `report` and reads every sheet back with SheetStream as text cells.
    private func roundTrip(_ report: KPIReport) throws -> [String: [[Cell]]] {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("review.xlsx").path
        try XLSXReport.write(report, to: path)
        let workbook = try SpreadsheetFile.open(path: path)
        var sheets: [String: [[Cell]]] = [:]
        for sheet in workbook.sheets {
            var rows: [[Cell]] = []
            try workbook.readRows(of: sheet) { rows.append($0.cells) }
            sheets[sheet.name] = rows
        }
        XCTAssertEqual(workbook.sheets.map(\.name).first, "Summary")
        return sheets
    }

    func testSummaryAndScopeSheetsHoldTheReportsNumbers() throws {
        let report = ReportFixtures.review([
            ReportFixtures.scope("08", title: "08 Natick: [East]", sales: 282_914),
            ReportFixtures.scope("ALL", title: "All stores", sales: 282_914),
        ])
        let sheets = try roundTrip(report)
        XCTAssertEqual(sheets.keys.sorted(), ["08 Natick_ _East_", "All stores", "Summary"])
        let summary = try XCTUnwrap(sheets["Summary"])
        XCTAssertEqual(summary[0].first, .string("Quarterly review 2025Q2 — All stores"))
        XCTAssertTrue(summary.contains { $0.first == .string("Headline") }, "the top scope's headline metrics first")
        let table = Array(try XCTUnwrap(summary.split { $0.first == .string("Scope") }.last))
        XCTAssertEqual(table.count, 2 * MetricDefinition.all.count)
        let quarter = try XCTUnwrap(report.scopes[0].periods.last?.metrics[0])
        let expected: [Cell] = [
            // The target as CSV prints it (SPEC section 26): 933616.2, not 933616.2000000001.
            .string("08 Natick: [East]"), .string("Sales"), .number(848_742),
            .number(NumberText.rounded(quarter.target ?? 0, .money)),
            .number(quarter.pctToTarget ?? 0), .string("▼ −9.1%"), .number(quarter.ly ?? 0),
            .number(quarter.pctVsLY ?? 0), .string(NumberText.change(quarter.pctVsLY)),
        ]
        XCTAssertEqual(Array(table[0].prefix(9)).map(Self.significant), expected.map(Self.significant))
        let scope = try XCTUnwrap(sheets["08 Natick_ _East_"])
        XCTAssertEqual(scope.count, 1 + 4 * MetricDefinition.all.count)
        let april: [Cell] = [.string("Sales"), .string("2025-04"), .number(282_914), .number(282_914 * 0.95)]
        XCTAssertEqual(scope[1].prefix(4).map(Self.significant), april.map(Self.significant))
        XCTAssertEqual(scope[1][5], .string("▲ +5.3%"))
        XCTAssertEqual(scope[1][8], .string(NumberText.change(report.scopes[0].periods[0].metrics[0].pctVsLY)))
    }

    /// A number as libxlsxwriter stores it: 16 significant digits (`%.16G`).
    static func significant(_ cell: Cell) -> Cell {
        guard case .number(let value) = cell, let stored = Double(String(format: "%.16G", value)) else { return cell }
        return .number(stored)
    }

    func testAStoreWithoutTargetsLeavesTheTargetCellsEmpty() throws {
        let sheets = try roundTrip(
            ReportFixtures.review([ReportFixtures.scope("30", title: "30 New", sales: 5000, targets: false)]))
        let summary = try XCTUnwrap(sheets["Summary"])
        let row = try XCTUnwrap(summary.split { $0.first == .string("Scope") }.last?.first)
        XCTAssertEqual(row[2], .number(15_000))
        XCTAssertEqual(row[3], .empty)
        XCTAssertEqual(row[4], .empty)
        XCTAssertEqual(row[5], .string("—"))
    }

    func testAReportWithoutScopesIsStillAWorkbook() throws {
        let sheets = try roundTrip(ReportFixtures.review([]))
        XCTAssertEqual(sheets.keys.sorted(), ["Summary"])
        XCTAssertEqual(sheets["Summary"]?.last?.first, .string("Scope"), "the title, the period and the table's header")
    }

    func testAnUnwritablePathNamesIt() {
        XCTAssertThrowsError(try XLSXReport.write(ReportFixtures.review([]), to: "/nonexistent/dir/review.xlsx")) {
            error in
            XCTAssertTrue(String(describing: error).contains("/nonexistent/dir/review.xlsx"), String(describing: error))
        }
    }
}
