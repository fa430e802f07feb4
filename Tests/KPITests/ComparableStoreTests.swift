import CivilCalendar
import Feeds
import SheetFixtures
import SheetStream
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// Comparable-store scopes (SPEC section 21) on both backends: which stores count, and that
/// comp sums are the sums of those stores' rows.
final class ComparableStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func file(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func day(_ text: String) -> CivilDate { CivilDate(iso8601: text) ?? CivilDate(year: 0, month: 1, day: 1) }

    /// Six stores around kpi as of 2025-06-17 under NRF 4-5-4 with weekday LY, whose YTD LY
    /// starts 2024-02-04 (FY2024's first day):
    /// - 01 opened long ago: comparable;
    /// - 02 opened 2024-02-03, the day before LY's start: comparable;
    /// - 03 opened 2024-03-01, inside LY: not comparable;
    /// - 04 closed 2025-06-10, during the period: not comparable;
    /// - 05 has no `opened` and sells from 2024-01-20: comparable (its first sales-audit row);
    /// - 06 has no `opened` and sells from 2024-02-10: not comparable.
    private func loadChain(into warehouse: Warehouse) throws {
        SampleWarehouse.ingest(
            try file(
                "stores.csv",
                """
                code,name,region,Open Date,Close Date
                01,One,East,2019-01-05,
                02,Two,East,2024-02-03,
                03,Three,East,2024-03-01,
                04,Four,West,2019-01-05,2025-06-10
                05,Five,West,,
                06,Six,West,,

                """), as: .stores, into: warehouse)
        var sales = "Store,Date,Net Sales,Transactions,Items\n"
        var cursor = day("2024-01-20")
        var amount = 100
        while cursor <= day("2025-06-17") {
            for (store, first, last) in [
                ("01", "2024-01-20", "2025-06-17"), ("02", "2024-02-03", "2025-06-17"),
                ("03", "2024-03-01", "2025-06-17"), ("04", "2024-01-20", "2025-06-10"),
                ("05", "2024-01-20", "2025-06-17"), ("06", "2024-02-10", "2025-06-17"),
            ] where cursor >= day(first) && cursor <= day(last) {
                sales += "\(store),\(cursor.iso8601),\(amount).25,3,4\n"
                amount = amount % 900 + 37
            }
            cursor = cursor.adding(days: 1)
        }
        SampleWarehouse.ingest(try file("sales_audit.csv", sales), as: .salesAudit, into: warehouse)
    }

    func testComparableStoresAndTheirSums() throws {
        try TestWarehouses.forEachBackend(in: directory) { location in
            let warehouse = try Warehouse(location: location)
            try loadChain(into: warehouse)
            let calendar = FiscalCalendar(kind: .retail(RetailCalendar()))
            let engine = KPIEngine(warehouse: warehouse, calendar: calendar, comparableStores: true)
            let report = try engine.kpi(asOf: day("2025-06-17"), filter: .all)
            XCTAssertEqual(
                report.scopes.map(\.scope),
                [
                    "01", "02", "03", "04", "05", "06", "region:East", "region:West", "ALL", "comp:region:East",
                    "comp:region:West", "comp:ALL",
                ])
            let comp = try XCTUnwrap(report.scopes.last)
            let ytd = try XCTUnwrap(comp.periods.first { $0.label == "YTD" })
            XCTAssertEqual(ytd.comparableStores, 3, "01, 02 and 05")
            let stores = Dictionary(uniqueKeysWithValues: report.scopes.map { ($0.scope, $0) })
            XCTAssertEqual(report.scopes.filter(\.isClosed).map(\.scope), ["04"], "closed 06-10, before 06-17")
            // WTD, MTD and QTD compare with LY ranges from 2024-06-16, 2024-06-02 and 2024-05-05: by
            // then 03 and 06 were open too. 04 closed inside every period.
            let comparable = [
                "WTD": ["01", "02", "03", "05", "06"], "MTD": ["01", "02", "03", "05", "06"],
                "QTD": ["01", "02", "03", "05", "06"], "YTD": ["01", "02", "05"],
            ]
            for (label, members) in comparable {
                let sales = { (scope: String) in
                    stores[scope]?.periods.first { $0.label == label }?.metrics.first
                }
                XCTAssertEqual(
                    stores["comp:ALL"]?.periods.first { $0.label == label }?.comparableStores, members.count, label)
                let expected = members.compactMap { sales($0)?.actual }.reduce(0, +)
                let expectedLY = members.compactMap { sales($0)?.ly }.reduce(0, +)
                let compSales = try XCTUnwrap(sales("comp:ALL"))
                XCTAssertEqual(compSales.actual ?? 0, expected, accuracy: 0.001, "\(label) comp = Σ comparable stores")
                XCTAssertEqual(compSales.ly ?? 0, expectedLY, accuracy: 0.001, "\(label) comp LY")
                XCTAssertNil(compSales.target, "comp scopes have no targets")
                XCTAssertNil(compSales.projection)
                XCTAssertEqual(compSales.pctVsLY, KPIEngine.change(compSales.actual, from: compSales.ly))
            }
            XCTAssertEqual(
                stores["comp:region:West"]?.periods.first { $0.label == "YTD" }?.comparableStores, 1, "05 alone")
            // A filter keeps comp to the filtered stores, one comp scope per total the filter shows.
            let east = try engine.kpi(asOf: day("2025-06-17"), filter: .region("East"))
            XCTAssertEqual(east.scopes.map(\.scope), ["01", "02", "03", "region:East", "comp:region:East"])
            XCTAssertEqual(east.scopes.last?.title, "Region East, comparable stores")
            XCTAssertEqual(east.scopes.last?.periods.last?.comparableStores, 2, "YTD: 01 and 02")
            let named = try engine.kpi(asOf: day("2025-06-17"), filter: .stores(["02", "05"]))
            XCTAssertEqual(named.scopes.map(\.scope), ["02", "05", "comp:ALL"])
            XCTAssertEqual(named.scopes.last?.title, "Comparable stores of 02, 05")
            XCTAssertEqual(named.scopes.last?.periods.last?.comparableStores, 2, "YTD: 02 and 05")
            // Off by default: no comp scopes.
            let plain = try KPIEngine(warehouse: warehouse, calendar: calendar).kpi(
                asOf: day("2025-06-17"), filter: .all)
            XCTAssertEqual(plain.scopes.last?.scope, "ALL")
            // The directory keeps the dates; the first sales-audit day stands in where none is given.
            let directory = Dictionary(uniqueKeysWithValues: try warehouse.stores().map { ($0.code, $0) })
            XCTAssertEqual(directory["02"]?.opened, day("2024-02-03"))
            XCTAssertEqual(directory["04"]?.closed, day("2025-06-10"))
            XCTAssertNil(directory["05"]?.opened)
            let first = try warehouse.firstSalesDates(of: ["01", "05", "06", "99"])
            XCTAssertEqual(first.count, 3, "99 has no rows")
            XCTAssertEqual(first["01"], day("2024-01-20"))
            XCTAssertEqual(first["05"], day("2024-01-20"))
            XCTAssertEqual(first["06"], day("2024-02-10"))
        }
    }

    /// An XLSX directory with date cells under `Opened` and `Date Closed`, and a bad row whose
    /// store closed before it opened, which names its row.
    func testWorkbookDirectoryWithOpeningAndClosingDays() throws {
        let path = directory.appendingPathComponent("stores.xlsx").path
        let writer = try XLSXWriter(path: path)
        try writer.addSheet(named: "Stores")
        try writer.writeRow([.string("Store #"), .string("Name"), .string("Opened"), .string("Date Closed")])
        let date = { (text: String) -> XLSXWriter.Value in
            .date(CellDateTime(daysSinceEpoch: self.day(text).daysSinceEpoch))
        }
        try writer.writeRow([.number(7), .string("Seven"), date("2024-09-14"), .empty])
        try writer.writeRow([.number(8), .string("Eight"), date("2019-01-05"), date("2025-05-17")])
        try writer.close()
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        XCTAssertEqual(SampleWarehouse.ingest(path, as: .stores, into: warehouse, threshold: 0).status, .ok)
        let stores = Dictionary(uniqueKeysWithValues: try warehouse.stores().map { ($0.code, $0) })
        XCTAssertEqual(stores["07"]?.opened, day("2024-09-14"))
        XCTAssertNil(stores["07"]?.closed)
        XCTAssertEqual(stores["08"]?.closed, day("2025-05-17"))

        let bad = try file("bad.csv", "code,name,opened,closed\n09,Nine,2025-01-10,2024-12-31\n")
        let outcome = SampleWarehouse.ingest(bad, as: .stores, into: warehouse, threshold: 0)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(outcome.rejects.first?.row, 2)
        XCTAssertTrue(
            outcome.rejects.first?.reason.contains("closed 2024-12-31 before it opened 2025-01-10") == true,
            outcome.rejects.first?.reason ?? "")
    }

    /// A stores import that changed the days can be undone on both backends: history keeps them.
    func testUndoingAStoresImportRestoresItsDays() throws {
        try TestWarehouses.forEachBackend(in: directory) { location in
            let warehouse = try Warehouse(location: location)
            let first = try file("stores-1.csv", "code,name,opened,closed\n01,One,2019-01-05,\n")
            let second = try file("stores-2.csv", "code,name,opened,closed\n01,One,2019-02-01,2025-05-17\n")
            XCTAssertEqual(SampleWarehouse.ingest(first, as: .stores, into: warehouse).status, .ok)
            let changed = SampleWarehouse.ingest(second, as: .stores, into: warehouse)
            XCTAssertEqual(changed.counts.updated, 1)
            XCTAssertEqual(try warehouse.stores().first?.closed, day("2025-05-17"))
            _ = try warehouse.undo(run: try XCTUnwrap(changed.runID), cascade: false)
            let store = try XCTUnwrap(try warehouse.stores().first)
            XCTAssertEqual(store.opened, day("2019-01-05"))
            XCTAssertNil(store.closed)
        }
    }

    func testComparabilityRule() {
        let stores = ComparableStores(
            directory: [
                StoreRecord(code: "a", name: "A", region: nil, opened: day("2024-05-05")),
                StoreRecord(code: "b", name: "B", region: nil, opened: day("2024-05-06")),
                StoreRecord(code: "c", name: "C", region: nil, opened: day("2020-01-01"), closed: day("2025-06-01")),
                StoreRecord(code: "d", name: "D", region: nil),
            ], firstSales: [:])
        let range = DateRange(start: day("2025-05-04"), end: day("2025-06-01"))
        let lastYear = DateRange(start: day("2024-05-05"), end: day("2024-06-02"))
        XCTAssertTrue(stores.isComparable("a", over: range, lastYear: lastYear), "opened on LY's first day")
        XCTAssertFalse(stores.isComparable("b", over: range, lastYear: lastYear), "opened inside LY")
        XCTAssertFalse(stores.isComparable("c", over: range, lastYear: lastYear), "closed on the period's last day")
        XCTAssertTrue(
            stores.isComparable(
                "c", over: DateRange(start: range.start, end: day("2025-05-31")), lastYear: lastYear),
            "closed the day after")
        XCTAssertFalse(stores.isComparable("d", over: range, lastYear: lastYear), "no opening day, no sales")
    }
}
