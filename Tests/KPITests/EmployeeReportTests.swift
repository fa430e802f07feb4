import CivilCalendar
import Feeds
import GRDB
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// `employees` on a small hand-made warehouse (SPEC section 9).
final class EmployeeReportTests: XCTestCase {
    private var directory: URL!
    private var warehouse: Warehouse!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n08,Natick,East\n10,Framingham,East\n21,Warwick,South\n"),
            as: .stores, into: warehouse)
    }

    override func tearDownWithError() throws {
        warehouse = nil
        try FileManager.default.removeItem(at: directory)
    }

    private func file(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    @discardableResult
    private func ingest(_ name: String, _ text: String) throws -> IngestOutcome {
        let outcome = SampleWarehouse.ingest(try file(name, text), as: .employeePerformance, into: warehouse)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
        return outcome
    }

    private func report(_ asOf: String, _ period: String = "MTD", filter: ScopeFilter = .all, top: Int = 10) throws
        -> EmployeeReport
    {
        try KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
            .employees(asOf: try XCTUnwrap(CivilDate(iso8601: asOf)), period: period, filter: filter, top: top)
    }

    private func row(_ report: EmployeeReport, _ scope: String, _ id: String) -> AssociateRow? {
        report.scopes.first { $0.scope == scope }?.associates.first { $0.employeeId == id }
    }

    func testRankingTiesSharesAndTheChainWideList() throws {
        try ingest(
            "employee_daily.csv",
            """
            Store #,Date,Emp #,Salesperson,Net Sales,Trans,Items,CCP %,GP %
            08,2025-07-01,0042,Ava Adams,100.00,2,3,50%,0.5
            08,2025-07-02,0042,Ava Adams,50.10,1,1,,
            08,2025-07-01,7,Ben Brown,150.10,3,3,40%,0.4
            08,2025-07-01,107,Cara Clark,0,1,1,,
            08,2025-07-02,42,Dan Diaz,-20.00,1,-1,,
            10,2025-07-01,7,Ben Brown,300.00,4,6,,
            10,2025-07-01,9,Eve Evans,99.99,1,1,,
            """)
        let july = try report("2025-07-02")
        XCTAssertEqual(july.scopes.map(\.scope), ["08", "10", "21", "ALL"])
        let natick = try XCTUnwrap(july.scopes.first)
        // 0042 and 7 tie at $150.10: ties go by id as text ("0042" < "7"); 107 sold $0 and is not
        // listed; 42 (not 0042) is listed with its negative total.
        XCTAssertEqual(natick.associates.map(\.employeeId), ["0042", "7", "42"])
        XCTAssertEqual(natick.associates.map(\.rank), [1, 2, 3])
        XCTAssertEqual(
            natick.associates.compactMap(\.share).reduce(0, +), 1, accuracy: 1e-12,
            "shares of all the store's associate sales")
        XCTAssertEqual(natick.associates[0].share ?? 0, 150.10 / 280.20, accuracy: 1e-12)
        let ava = natick.associates[0]
        XCTAssertEqual(ava.name, "Ava Adams")
        XCTAssertEqual(
            ava.metrics.map(\.key),
            ["totalSales", "totalTransactions", "totalItems", "avgAds", "upt", "ccpPct", "gpPct", "share"])
        XCTAssertEqual(ava.metrics[0].value, 150.10)
        XCTAssertEqual(ava.metrics[3].value ?? 0, 150.10 / 3, accuracy: 1e-12)
        XCTAssertEqual(ava.metrics[5].value, 0.5, "CCP over the rows that report it")
        // Linear projection: 2 of July's 31 days.
        XCTAssertEqual(ava.projectedSales, 150.10 * 31 / 2, accuracy: 1e-9)
        XCTAssertEqual(natick.associates.map(\.lySales), [0, 0, 0])
        XCTAssertNil(ava.pctVsLY)

        // Chain-wide: Ben Brown summed over 08 and 10, shares of all associates' sales.
        let all = try XCTUnwrap(july.scopes.last)
        XCTAssertEqual(all.associates.map(\.employeeId), ["7", "0042", "9", "42"])
        XCTAssertEqual(all.associates[0].metrics[0].value, 450.10)
        XCTAssertEqual(all.associates.compactMap(\.share).reduce(0, +), 1, accuracy: 1e-12)
        XCTAssertEqual(try report("2025-07-02", top: 2).scopes.last?.associates.map(\.employeeId), ["7", "0042"])

        // Filters list only their stores, with no chain-wide list.
        XCTAssertEqual(try report("2025-07-02", filter: .stores(["10"])).scopes.map(\.scope), ["10"])
        XCTAssertEqual(try report("2025-07-02", filter: .region("East")).scopes.map(\.scope), ["08", "10"])
    }

    func testMonthlyRowsOnlyForWholeMonthsWithoutDailyRows() throws {
        try ingest(
            "employee_monthly.csv",
            """
            Store,Month,Employee ID,Employee Name,Net Sales,Transactions,Units
            08,Jun 2025,0042,Ava A.,3000,30,40
            08,2025-06,7,Ben Brown,2000,20,20
            08,7/2025,0042,Ava A.,999,9,9
            """)
        try ingest(
            "employee_daily.csv",
            """
            Store #,Date,Emp #,Salesperson,Net Sales,Trans,Items
            08,2025-06-10,7,Ben Brown,500,5,5
            08,2025-07-01,0042,Ava Adams,100,1,1
            """)
        // June is whole in QTD as of 2025-07-01; Ben has June daily rows, so his June monthly row
        // stands aside; Ava's June monthly row counts. July is not whole: only daily rows.
        let qtd = try report("2025-07-01", "QTD")
        XCTAssertEqual(row(qtd, "08", "0042")?.metrics[0].value, 100, "QTD is July 1 alone: daily rows only")
        let ytd = try report("2025-07-01", "YTD")
        let natick = try XCTUnwrap(ytd.scopes.first)
        XCTAssertEqual(natick.associates.map(\.employeeId), ["0042", "7"])
        XCTAssertEqual(natick.associates[0].metrics[0].value, 3100, "June's monthly 3000 + July 1's daily 100")
        XCTAssertEqual(natick.associates[1].metrics[0].value, 500, "June's daily rows, not its monthly row")
        // The name on the latest row: July's monthly row counts as of July 31, after July 1's daily row.
        XCTAssertEqual(natick.associates[0].name, "Ava A.")
        // As of 2025-06-30 (June whole in MTD), June's monthly row counts for Ava.
        XCTAssertEqual(row(try report("2025-06-30"), "08", "0042")?.metrics[0].value, 3000)
        // As of 2025-06-15, June is not whole: no monthly rows, Ben's daily row only.
        XCTAssertEqual(try report("2025-06-15").scopes.first?.associates.map(\.employeeId), ["7"])
    }

    func testLastYearUsesTheMovedBackRangeWithTheSameRules() throws {
        try ingest(
            "employee_2024.csv",
            """
            Store,Month,Employee ID,Employee Name,Net Sales,Transactions,Units
            08,2024-07,0042,Ava Adams,6200,62,62
            """)
        try ingest(
            "employee_daily.csv",
            """
            Store #,Date,Emp #,Salesperson,Net Sales,Trans,Items
            08,2025-07-31,0042,Ava Adams,7000,70,70
            10,2025-07-31,0042,Ava Adams,1000,10,10
            """)
        let july = try report("2025-07-31")
        let ava = try XCTUnwrap(row(july, "08", "0042"))
        XCTAssertEqual(ava.lySales, 6200, "July 2024 is whole in the LY range, so its monthly row counts")
        XCTAssertEqual(ava.pctVsLY ?? 0, 7000.0 / 6200 - 1, accuracy: 1e-12)
        XCTAssertEqual(ava.projectedSales, 7000, "a finished month projects its actual")
        XCTAssertEqual(row(july, "10", "0042")?.lySales, 0)
        XCTAssertNil(row(july, "10", "0042")?.pctVsLY)
        XCTAssertEqual(row(july, "ALL", "0042")?.lySales, 6200, "ALL sums LY over every store")
        XCTAssertEqual(row(july, "ALL", "0042")?.metrics[0].value, 8000)
    }

    func testEmptyIdsAndUnknownStoresAreRejects() throws {
        let outcome = SampleWarehouse.ingest(
            try file(
                "employee_bad.csv",
                """
                Store #,Date,Emp #,Net Sales,Trans,Items
                08,2025-07-01,,100,1,1
                99,2025-07-01,5,100,1,1
                08,2025-07-01,5,100,1,1
                """), as: .employeePerformance, into: warehouse)
        XCTAssertEqual(outcome.rejected, 2)
        XCTAssertEqual(outcome.rejects.map(\.column), ["C", "A"])
        XCTAssertEqual(outcome.rejects.first?.reason, "is empty, but the field is required")
    }
}
