import CivilCalendar
import Feeds
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// A review read before its quarter ends (SPEC section 22): cut at the as-of date, compared with
/// the target and LY of the same days, and saying what the whole period takes.
final class RunningReviewTests: TemporaryWarehouseTestCase {
    /// Store 10 sells 500 a day from 2025-07-01 to 07-12 (and 2024-07-01 to 07-31 a year
    /// earlier) against a monthly target of 31,000 for July only.
    private func engine() throws -> KPIEngine {
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n10,Framingham,East\n"), as: .stores, into: warehouse)
        var sales = "Store,Date,Net Sales,Transactions,Items\n"
        for day in 1...12 { sales += "10,2025-07-\(String(format: "%02d", day)),500,5,6\n" }
        for day in 1...31 { sales += "10,2024-07-\(String(format: "%02d", day)),400,4,4\n" }
        SampleWarehouse.ingest(try file("sales_audit.csv", sales), as: .salesAudit, into: warehouse)
        SampleWarehouse.ingest(
            try file("goals.csv", "period,scope,metric,target\n2025-07,10,totalSales,31000\n"), as: .goals,
            into: warehouse)
        return KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
    }

    func testRunningQuarterIsCutAtTheLatestSalesDay() throws {
        let engine = try engine()
        let quarter = try XCTUnwrap(engine.calendar.quarter(named: "2025Q3"))
        let report = try engine.review(quarter: quarter, filter: .all)
        XCTAssertEqual(report.asOf, CivilDate(year: 2025, month: 7, day: 12))
        let periods = try XCTUnwrap(report.scopes.first?.periods)
        XCTAssertEqual(periods.map(\.label), ["2025-07", "2025Q3"], "months after the as-of date are left out")
        for period in periods {
            XCTAssertTrue(period.isRunning)
            XCTAssertEqual(period.range.end, CivilDate(year: 2025, month: 7, day: 12))
            XCTAssertEqual(
                period.lastYear,
                DateRange(start: CivilDate(year: 2024, month: 7, day: 1), end: CivilDate(year: 2024, month: 7, day: 12))
            )
        }

        let july = try value(report, "10", "2025-07", "totalSales")
        XCTAssertEqual(july.actual, 6_000)
        XCTAssertEqual(july.target ?? 0, 31_000.0 * 12 / 31, accuracy: 1e-9, "the target of the same days")
        XCTAssertEqual(july.ly, 4_800, "LY of the same days")
        XCTAssertNil(july.projection, "the review's metrics carry no top-level projection")
        let full = try XCTUnwrap(july.full)
        XCTAssertEqual(full.end, CivilDate(year: 2025, month: 7, day: 31))
        XCTAssertEqual(full.target, 31_000)
        XCTAssertEqual(full.needed, 25_000)
        XCTAssertEqual(full.remainingDays, 19)
        XCTAssertEqual(full.neededPerDay ?? 0, 25_000.0 / 19, accuracy: 1e-9)
        XCTAssertEqual(full.actualPerDay, 500)
        XCTAssertEqual(full.projection?.value ?? 0, 6_000.0 * 31 / 12, accuracy: 1e-9)

        XCTAssertNil(try value(report, "10", "2025Q3", "totalSales").full, "no target for August: no full target")
        XCTAssertNil(try value(report, "10", "2025-07", "avgAds").full, "ratio metrics have no full")
    }

    func testAsOfCutsFeedsWithLaterRowsAndMatchesKPI() throws {
        let engine = try engine()
        let quarter = try XCTUnwrap(engine.calendar.quarter(named: "2025Q3"))
        let asOf = CivilDate(year: 2025, month: 7, day: 10)
        let review = try engine.review(quarter: quarter, asOf: asOf, filter: .all)
        let kpi = try engine.kpi(asOf: asOf, filter: .all)
        for scope in ["10", "region:East", "ALL"] {
            for (reviewPeriod, kpiPeriod) in [("2025-07", "MTD"), ("2025Q3", "QTD")] {
                for metric in MetricDefinition.all.map(\.key) {
                    let cut = try value(review, scope, reviewPeriod, metric)
                    let toDate = try value(kpi, scope, kpiPeriod, metric)
                    XCTAssertEqual(cut.actual, toDate.actual, "\(scope) \(metric)")
                    XCTAssertEqual(cut.target, toDate.target, "\(scope) \(metric)")
                    XCTAssertEqual(cut.ly, toDate.ly, "\(scope) \(metric)")
                    XCTAssertEqual(cut.full, toDate.full, "\(scope) \(metric)")
                }
            }
        }
        XCTAssertEqual(
            try value(review, "10", "2025-07", "totalSales").actual, 5_000, "rows after the as-of day are cut")
        XCTAssertEqual(try value(kpi, "10", "MTD", "totalSales").full?.remainingDays, 21)
        XCTAssertNil(try value(kpi, "10", "WTD", "totalSales").full, "WTD has no full")
    }

    func testWholeQuarterAndBadAsOf() throws {
        let engine = try engine()
        let quarter = try XCTUnwrap(engine.calendar.quarter(named: "2025Q3"))
        let end = try engine.review(quarter: quarter, asOf: CivilDate(year: 2025, month: 9, day: 30), filter: .all)
        XCTAssertEqual(end.scopes.first?.periods.map(\.label), ["2025-07", "2025-08", "2025-09", "2025Q3"])
        XCTAssertEqual(end.scopes.first?.periods.map(\.isRunning), [false, false, false, false])
        // Sales run through 07-12: July is counted to that day, August and September have no data.
        let july = try value(end, "10", "2025-07", "totalSales")
        XCTAssertEqual(july.dataThrough, CivilDate(year: 2025, month: 7, day: 12))
        XCTAssertEqual(july.full?.remainingDays, 19)
        let august = try value(end, "10", "2025-08", "totalSales")
        XCTAssertTrue(august.hasNoData)
        XCTAssertNil(august.actual)
        XCTAssertNil(august.pctToTarget)

        XCTAssertThrowsError(
            try engine.review(quarter: quarter, asOf: CivilDate(year: 2025, month: 10, day: 1), filter: .all)
        ) {
            XCTAssertEqual("\($0)", "--as-of 2025-10-01 is not in 2025Q3 (2025-07-01 to 2025-09-30)")
        }
        let later = try XCTUnwrap(engine.calendar.quarter(named: "2025Q4"))
        XCTAssertThrowsError(try engine.review(quarter: later, filter: .all)) {
            XCTAssertEqual("\($0)", "no data for 2025Q4: data through 2025-07-12")
        }
    }
}
