import CivilCalendar
import Feeds
import Warehouse
import XCTest

@testable import KPI

final class MetricAndTargetTests: XCTestCase {
    private func metric(_ key: String) -> MetricDefinition { MetricDefinition.all.first { $0.key == key }! }

    func testFormulasOnHandComputedMeasures() {
        var measures = MeasureSums()
        measures.salesCents = 100_000
        measures.transactions = 4
        measures.items = 10
        measures.ccpWeighted = 500_000 * 6 + 250_000 * 4
        measures.ccpItems = 10
        measures.gpWeighted = 500_000 * 60_000 + 400_000 * 40_000
        measures.gpSalesCents = 100_000
        measures.applications = 3
        XCTAssertEqual(metric("totalSales").value(measures), 1000)
        XCTAssertEqual(metric("avgAds").value(measures), 250)
        XCTAssertEqual(metric("upt").value(measures), 2.5)
        XCTAssertEqual(metric("ccpPct").value(measures), 0.4)
        XCTAssertEqual(metric("gpPct").value(measures), 0.46)
        XCTAssertEqual(metric("creditApps").value(measures), 3)
        XCTAssertEqual(metric("outboundCalls").value(measures), 0, "an additive metric with no records is 0")
        let empty = MeasureSums()
        XCTAssertNil(metric("avgAds").value(empty), "zero transactions: no value")
        XCTAssertNil(metric("ccpPct").value(empty))
        XCTAssertEqual(KPIEngine.change(110, from: 100)!, 0.1, accuracy: 1e-12)
        XCTAssertNil(KPIEngine.change(110, from: 0))
        XCTAssertNil(KPIEngine.change(nil, from: 100))
    }

    private let july = "2025-07"
    private func day(_ d: Int) -> CivilDate { CivilDate(year: 2025, month: 7, day: d) }
    private func part(_ a: Int, _ b: Int) -> DateRange { DateRange(start: day(a), end: day(b)) }

    private var book: TargetBook {
        TargetBook(goals: [
            GoalRecord(period: july, scope: "global", metric: "totalSales", target: 3100, date: nil),
            GoalRecord(period: july, scope: "08", metric: "totalSales", target: 6200, date: nil),
            GoalRecord(period: july, scope: "10", metric: "totalSales", target: 9999, date: nil),
            GoalRecord(period: july, scope: "10", metric: "totalSales", target: 500, date: day(14)),
            GoalRecord(period: july, scope: "10", metric: "totalSales", target: 700, date: day(15)),
            GoalRecord(period: july, scope: "global", metric: "upt", target: 2, date: nil),
            GoalRecord(period: july, scope: "08", metric: "upt", target: 3, date: nil),
        ])
    }

    func testDailyBeatsMonthlyBeatsGlobalAndProration() {
        XCTAssertEqual(
            book.additiveTarget(store: "12", month: july, part: part(1, 31), metric: "totalSales"), 3100,
            "global default")
        XCTAssertEqual(
            book.additiveTarget(store: "08", month: july, part: part(1, 31), metric: "totalSales"), 6200,
            "store monthly")
        XCTAssertEqual(
            book.additiveTarget(store: "08", month: july, part: part(1, 15), metric: "totalSales"), 3000,
            "prorated 15/31")
        XCTAssertEqual(
            book.additiveTarget(store: "10", month: july, part: part(1, 31), metric: "totalSales"), 1200,
            "daily targets replace the month's")
        XCTAssertEqual(book.additiveTarget(store: "10", month: july, part: part(15, 20), metric: "totalSales"), 700)
        XCTAssertNil(book.additiveTarget(store: "08", month: july, part: part(1, 31), metric: "creditApps"))
    }

    func testRatioTargetsAreWeightedByActualDenominators() {
        let stores = StoreIndex(codes: ["08", "12"])
        var store08 = MeasureSums()
        store08.transactions = 30
        var store12 = MeasureSums()
        store12.transactions = 10
        let julyParts = FiscalCalendar().goalMonths(of: part(1, 31))
        let grid = PeriodGrid(
            parts: julyParts, full: nil, stores: stores, current: [[store08], [store12]],
            previous: [MeasureSums(), MeasureSums()], targets: book)
        let east = stores.indices(of: ["08", "12"])
        let upt = MetricDefinition.all.firstIndex { $0.key == "upt" } ?? 0
        let sales = MetricDefinition.all.firstIndex { $0.key == "totalSales" } ?? 0
        XCTAssertEqual(grid.target(metric: upt, east)!, (3 * 30 + 2 * 10) / 40, accuracy: 1e-12)
        let empty = PeriodGrid(
            parts: julyParts, full: nil, stores: stores, current: [[MeasureSums()], [MeasureSums()]],
            previous: [MeasureSums(), MeasureSums()], targets: book)
        XCTAssertNil(empty.target(metric: upt, east), "no weight, no target")
        XCTAssertEqual(grid.target(metric: sales, east), 6200 + 3100, "additive targets add up over stores")
        XCTAssertEqual(grid.actual(east).transactions, 40)
    }
}
