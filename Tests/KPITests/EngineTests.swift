import CivilCalendar
import Feeds
import GRDB
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// The engine on a small hand-made warehouse, and on SampleFeeds against plain SQL written
/// separately from it.
final class EngineTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func file(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    private func value(_ report: KPIReport, scope: String, period: String, metric: String) -> MetricValue? {
        report.scopes.first { $0.scope == scope }?.periods.first { $0.label == period }?.metrics.first {
            $0.key == metric
        }
    }

    func testRegionRollupsSumMeasuresNotMetrics() throws {
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n08,Natick,East\n10,Framingham,East\n21,Warwick,South\n"),
            as: .stores, into: warehouse)
        SampleWarehouse.ingest(
            try file(
                "sales_audit.csv",
                "Store,Date,Net Sales,Transactions,Items,CCP %,GP %\n08,2025-07-14,1000,10,30,0.5,0.5\n10,2025-07-15,300,1,1,0.1,0.2\n08,2024-07-14,500,5,5,,\n"
            ),
            as: .salesAudit, into: warehouse)
        SampleWarehouse.ingest(
            try file("goals.csv", "period,scope,metric,target\n2025-07,global,totalSales,3100\n2025-07,global,upt,2\n"),
            as: .goals, into: warehouse)
        let report = try KPIEngine(warehouse: warehouse, calendar: FiscalCalendar()).kpi(
            asOf: CivilDate(year: 2025, month: 7, day: 15), filter: .all)
        XCTAssertEqual(report.scopes.map(\.scope), ["08", "10", "21", "region:East", "region:South", "ALL"])
        let upt = try XCTUnwrap(value(report, scope: "region:East", period: "WTD", metric: "upt"))
        XCTAssertEqual(upt.actual, 31.0 / 11.0, "Σ items / Σ transactions, not the mean of 3 and 1")
        XCTAssertEqual(upt.target, 2)
        let ccp = try XCTUnwrap(value(report, scope: "ALL", period: "MTD", metric: "ccpPct"))
        XCTAssertEqual(ccp.actual!, (0.5 * 30 + 0.1 * 1) / 31, accuracy: 1e-12)
        let sales = try XCTUnwrap(value(report, scope: "08", period: "WTD", metric: "totalSales"))
        XCTAssertEqual(sales.actual, 1000)
        XCTAssertEqual(sales.target!, 3100.0 * 2 / 31, accuracy: 1e-9, "two of July's 31 days")
        XCTAssertEqual(sales.ly, 500, "2024-07-14..15")
        XCTAssertEqual(sales.pctVsLY, 1)
        let south = try XCTUnwrap(value(report, scope: "21", period: "WTD", metric: "avgAds"))
        XCTAssertNil(south.actual, "no transactions: no value")
        XCTAssertNil(south.pctToTarget)
        XCTAssertEqual(value(report, scope: "21", period: "WTD", metric: "totalSales")?.actual, 0)
        XCTAssertThrowsError(
            try KPIEngine(warehouse: warehouse, calendar: FiscalCalendar()).kpi(
                asOf: CivilDate(year: 2030, month: 1, day: 1), filter: .all))
        XCTAssertThrowsError(
            try KPIEngine(warehouse: warehouse, calendar: FiscalCalendar()).kpi(
                asOf: CivilDate(year: 2025, month: 7, day: 15), filter: .region("North"))
        ) { error in
            XCTAssertEqual("\(error)", "unknown region \"North\"; known regions: East, South")
        }
    }

    /// A handful of SampleFeeds KPIs recomputed with SQL written apart from the engine.
    func testSampleFeedsAgainstIndependentSQL() throws {
        let warehouse = try SampleWarehouse.sampleFeeds(at: directory.appendingPathComponent("sample.sqlite").path)
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        let report = try engine.kpi(asOf: CivilDate(year: 2025, month: 6, day: 15), filter: .all)
        func sql(_ query: String) throws -> Double {
            try warehouse.sqliteQueue().read { db in try Double.fetchOne(db, sql: query) ?? .nan }
        }

        XCTAssertEqual(
            value(report, scope: "ALL", period: "QTD", metric: "totalSales")!.actual!,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM store_report WHERE date BETWEEN '2025-04-01' AND '2025-06-15'"
            ),
            "exact: one division of an exact sum of cents")
        XCTAssertEqual(
            value(report, scope: "region:East", period: "YTD", metric: "upt")!.actual!,
            try sql(
                "SELECT 1.0 * sum(total_items) / sum(total_transactions) FROM store_report JOIN store ON code = store_code WHERE region = 'East' AND date BETWEEN '2025-01-01' AND '2025-06-15'"
            ), accuracy: 1e-12)
        XCTAssertEqual(
            value(report, scope: "08", period: "MTD", metric: "gpPct")!.actual!,
            try sql(
                """
                SELECT 1.0 * sum(gp_pct_millionths * total_sales_cents)
                    / (sum(CASE WHEN gp_pct_millionths IS NOT NULL THEN total_sales_cents END) * 1000000)
                FROM store_report WHERE store_code = '08' AND date BETWEEN '2025-06-01' AND '2025-06-15'
                """))
        XCTAssertEqual(
            value(report, scope: "ALL", period: "MTD", metric: "creditApps")!.actual!,
            try sql(
                "SELECT sum(total_applications) FROM credit_report WHERE date BETWEEN '2025-06-01' AND '2025-06-15'"))
        XCTAssertEqual(
            value(report, scope: "ALL", period: "MTD", metric: "outboundCalls")!.actual!,
            try sql(
                """
                SELECT sum(CASE WHEN date(week_start, '+' || d.n || ' days') BETWEEN '2025-06-01' AND '2025-06-15'
                    THEN CASE d.n WHEN 0 THEN day_0 WHEN 1 THEN day_1 WHEN 2 THEN day_2 WHEN 3 THEN day_3
                        WHEN 4 THEN day_4 WHEN 5 THEN day_5 ELSE day_6 END ELSE 0 END)
                FROM outbound_call_report, (SELECT 0 AS n UNION SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6) AS d
                """))
        XCTAssertEqual(
            value(report, scope: "27", period: "YTD", metric: "totalSales")!.ly!,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM store_report WHERE store_code = '27' AND date BETWEEN '2024-01-01' AND '2024-06-15'"
            ))
        // Store 08's June has daily sales targets; its MTD target is their sum over June 1–15.
        XCTAssertEqual(
            value(report, scope: "08", period: "MTD", metric: "totalSales")!.target!,
            try sql(
                "SELECT sum(target) FROM goal WHERE scope = '08' AND metric = 'totalSales' AND date BETWEEN '2025-06-01' AND '2025-06-15'"
            ))
        // Store 10 has only the global monthly target: prorated 15/30.
        XCTAssertEqual(
            value(report, scope: "10", period: "MTD", metric: "totalSales")!.target!,
            try sql(
                "SELECT target * 15 / 30 FROM goal WHERE scope = 'global' AND metric = 'totalSales' AND period = '2025-06'"
            ), accuracy: 1e-9)
    }
}
