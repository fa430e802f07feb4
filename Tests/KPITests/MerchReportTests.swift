import CivilCalendar
import Feeds
import GRDB
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// `merch` on a small hand-made warehouse (SPEC section 10).
final class MerchReportTests: XCTestCase {
    private var directory: URL!
    private var warehouse: Warehouse!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n08,Natick,East\n10,Framingham,East\n21,Warwick,South\n"),
            as: .stores, into: warehouse)
        // 2025 Q2 by day, plus monthly rows; 2024 Q2 (LY) by month.
        let outcome = SampleWarehouse.ingest(
            try file(
                "merch.csv",
                """
                Store,Date,Period,Vendor #,Vendor,Category,Net Sales,Units
                08,2025-04-02,,V1,Pandora Old,Fashion,100.00,2
                08,2025-05-02,,V1,Pandora,Fashion,50.00,1
                08,2025-04-03,,V2,Tacori,Bridal,150.00,1
                10,2025-04-03,,V2,Tacori,Bridal,10.00,1
                10,2025-04-03,,V3,Seiko,Watches,160.00,4
                08,2025-04-03,,V4,Bulova,,-20.00,1
                08,,2025-06,V5,Lagos,Gold,30.00,3
                08,,2025-05,V1,Pandora,Fashion,999.00,9
                08,2025-05-20,,,,Repairs,40.00,2
                08,,2024-04,V2,Tacori,Bridal,300.00,2
                08,,2024-05,V9,Chamilia,Fashion,500.00,5
                08,,2024-06,V1,Pandora,Fashion,75.00,1
                """), as: .merchSales, into: warehouse)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
    }

    override func tearDownWithError() throws {
        warehouse = nil
        try FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func report(by dimension: MerchDimension, filter: ScopeFilter = .all, top: Int = 10) throws -> MerchReport {
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        return try engine.merch(
            quarter: try XCTUnwrap(engine.calendar.quarter(named: "2025Q2")), by: dimension, filter: filter, top: top)
    }

    func testVendorRankingTiesOtherSharesAndLastYear() throws {
        let vendors = try report(by: .vendor)
        XCTAssertEqual(vendors.scopes.map(\.scope), ["08", "10", "21", "region:East", "region:South", "ALL"])
        let natick = try XCTUnwrap(vendors.scopes.first)
        // V1: April and May days (150); May's monthly row stands aside because May has day rows.
        // V1 and V2 tie at $150: V1 first by key. V5's June monthly row counts (June is whole).
        XCTAssertEqual(natick.rows.map(\.key), ["V1", "V2", "V5", "V4"])
        XCTAssertEqual(natick.rows.map(\.salesCents), [15_000, 15_000, 3000, -2000])
        XCTAssertEqual(natick.rows[0].name, "Pandora", "the name on the key's latest row")
        XCTAssertEqual(natick.rows.compactMap(\.share).reduce(0, +), 1, accuracy: 1e-12)
        XCTAssertEqual(natick.rows[1].share ?? 0, 150.0 / 310, accuracy: 1e-12)
        XCTAssertEqual(natick.rows[0].averagePrice, 50)
        // LY (2024 Q2): V9 sold only then (not listed); V2 300 ranks 2nd of the LY keys (V9 500 first).
        XCTAssertEqual(natick.rows[1].lySalesCents, 30_000)
        XCTAssertEqual(natick.rows[1].rankLY, 2)
        XCTAssertEqual(natick.rows[1].pctVsLY ?? 0, -0.5, accuracy: 1e-12)
        XCTAssertEqual(natick.rows[0].rankLY, 3)
        XCTAssertNil(natick.rows[2].rankLY, "no LY sales: no LY rank")
        XCTAssertEqual(natick.rows[2].lySalesCents, 0)
        XCTAssertNil(natick.rows[2].pctVsLY)

        let top2 = try XCTUnwrap(try report(by: .vendor, top: 2).scopes.first)
        XCTAssertEqual(top2.rows.map(\.key), ["V1", "V2", "(other)"])
        let other = try XCTUnwrap(top2.rows.last)
        XCTAssertNil(other.rank)
        XCTAssertEqual(other.salesCents, 1000, "V5 + V4")
        XCTAssertEqual(other.items, 4)
        XCTAssertEqual(other.lySalesCents, 0, "V9 sold only in LY: not part of (other)")
        XCTAssertEqual(top2.rows.compactMap(\.share).reduce(0, +), 1, accuracy: 1e-12)

        let east = try XCTUnwrap(vendors.scopes.first { $0.scope == "region:East" })
        XCTAssertEqual(east.rows.map(\.key), ["V2", "V3", "V1", "V5", "V4"], "V2 160 (08 + 10), V3 160: tie by key")
        XCTAssertTrue(vendors.scopes.first { $0.scope == "21" }?.rows.isEmpty ?? false)
    }

    func testCategoriesSkipRowsWithoutOneAndFiltersWorkAsInEmployees() throws {
        let categories = try report(by: .category, filter: .stores(["08"]))
        XCTAssertEqual(categories.scopes.map(\.scope), ["08"])
        let natick = try XCTUnwrap(categories.scopes.first)
        XCTAssertEqual(
            natick.rows.map(\.key), ["Bridal", "Fashion", "Repairs", "Gold"], "Bulova's row has no category")
        XCTAssertEqual(natick.rows.map(\.name), natick.rows.map(\.key))
        XCTAssertEqual(natick.rows.compactMap(\.share).reduce(0, +), 1, accuracy: 1e-12)
        XCTAssertEqual(natick.rows[0].share ?? 0, 150.0 / 370, accuracy: 1e-12)
        let south = try report(by: .category, filter: .region("South"))
        XCTAssertEqual(south.scopes.map(\.scope), ["21", "region:South"])
        XCTAssertThrowsError(
            try KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
                .merch(asOf: CivilDate(year: 2030, month: 1, day: 1), period: "MTD", by: .vendor, filter: .all, top: 10)
        )
    }
}

/// Issue 20, defect 9: a vendor renamed after the period shows its latest name in the period's
/// report too (SPEC section 10: the latest name anywhere in the warehouse), and an undo of the
/// file that renamed it gives the old name back.
final class VendorNameTests: XCTestCase {
    func testAVendorRenamedLaterShowsItsLatestNameInEarlierPeriods() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        func ingest(_ name: String, _ text: String, as feed: FeedID) throws -> IngestOutcome {
            let outcome = SampleWarehouse.ingest(
                try TestPaths.write(Array(text.utf8), named: name, in: directory), as: feed, into: warehouse)
            XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
            return outcome
        }
        _ = try ingest("stores.csv", "code,name\n08,Natick\n", as: .stores)
        _ = try ingest(
            "merch_q1.csv",
            "Store,Date,Vendor #,Vendor,Net Sales,Units\n08,2025-02-03,V1,Pandora,100,1\n08,2025-03-03,V2,Tacori,50,1\n",
            as: .merchSales)
        let renamed = try ingest(
            "merch_q2.csv", "Store,Date,Vendor #,Vendor,Net Sales,Units\n08,2025-04-03,V1,Pandora Jewelry,10,1\n",
            as: .merchSales)
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        let names = {
            try engine.merch(
                quarter: try XCTUnwrap(engine.calendar.quarter(named: "2025Q1")), by: .vendor, filter: .all, top: 10
            )
            .scopes.first?.rows.map(\.name)
        }
        XCTAssertEqual(try names(), ["Pandora Jewelry", "Tacori"], "Q1 shows the name V1 took in April")
        _ = try warehouse.undo(run: try XCTUnwrap(renamed.runID), cascade: false)
        XCTAssertEqual(try names(), ["Pandora", "Tacori"])
    }
}
