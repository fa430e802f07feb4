import CivilCalendar
import Feeds
import GRDB
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// Pace to goal (SPEC section 11): the rule itself, and `kpi`'s projections on a warehouse.
final class ProjectionTests: TemporaryWarehouseTestCase {
    func testTargetShapedLinearCompleteAndFirstDay() {
        let linear = Projection(actual: 100, elapsedDays: 10, fullDays: 30)
        XCTAssertEqual(linear.value, 300)
        XCTAssertNil(linear.pctToTarget, "no full-period target, no value")

        let shaped = Projection(actual: 100, elapsedDays: 10, fullDays: 30, elapsedTarget: 80, fullTarget: 300)
        XCTAssertEqual(shaped.value, 375, "actual × T_full / T_e")
        XCTAssertEqual(shaped.pctToTarget, 0.25)

        let zeroSoFar = Projection(actual: 10, elapsedDays: 10, fullDays: 30, elapsedTarget: 0, fullTarget: 300)
        XCTAssertEqual(zeroSoFar.value, 30, "T_e = 0: the linear rule")
        XCTAssertEqual(zeroSoFar.pctToTarget, -0.9)

        let complete = Projection(actual: 123.45, elapsedDays: 31, fullDays: 31, elapsedTarget: 100, fullTarget: 100)
        XCTAssertEqual(complete.value, 123.45, "a finished period projects its actual")

        let firstDay = Projection(actual: 10, elapsedDays: 1, fullDays: 31)
        XCTAssertEqual(firstDay.value, 310, "e = 1")
        XCTAssertEqual(
            Projection(actual: 10, elapsedDays: 1, fullDays: 31, elapsedTarget: 5, fullTarget: 0).pctToTarget, nil)
    }

    /// Store 08 has daily sales targets loading the weekend, 10 a monthly target, 21 none.
    func testKPIProjectionsFollowTheTargetsShape() throws {
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n08,Natick,East\n10,Framingham,East\n21,Warwick,South\n"),
            as: .stores, into: warehouse)
        var sales = "Store,Date,Net Sales,Transactions,Items\n"
        for day in 1...10 {
            sales +=
                "08,2025-07-\(String(format: "%02d", day)),1000,10,12\n10,2025-07-\(String(format: "%02d", day)),500,5,6\n21,2025-07-\(String(format: "%02d", day)),200,2,2\n"
        }
        SampleWarehouse.ingest(try file("sales_audit.csv", sales), as: .salesAudit, into: warehouse)
        var goals = "period,scope,metric,target,date\n2025-07,10,totalSales,31000,\n2025-07,10,upt,1.5,\n"
        for day in 1...31 {
            // Saturdays and Sundays (July 5/6, 12/13, …) carry twice a weekday's target.
            let weekday = day % 7  // 0 Monday … 6 Sunday in July 2025 (July 1 is a Tuesday)
            goals += "2025-07,08,totalSales,\(weekday >= 5 ? 2000 : 1000),2025-07-\(String(format: "%02d", day))\n"
        }
        SampleWarehouse.ingest(try file("goals.csv", goals), as: .goals, into: warehouse)
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        let report = try engine.kpi(asOf: CivilDate(year: 2025, month: 7, day: 10), filter: .all)

        // 08: daily targets. Elapsed July 1–10 has 2 weekend days: 8 × 1000 + 2 × 2000 = 12,000;
        // the month has 8: 23 × 1000 + 8 × 2000 = 39,000.
        let natick = try value(report, "08", "MTD", "totalSales")
        XCTAssertEqual(natick.actual, 10_000)
        XCTAssertEqual(natick.target, 12_000)
        XCTAssertEqual(natick.projection?.value ?? 0, 10_000.0 * 39_000 / 12_000, accuracy: 1e-6)
        XCTAssertEqual(natick.projection?.pctToTarget ?? 0, 10_000.0 / 12_000 - 1, accuracy: 1e-12)

        // 10: a monthly target prorated by days: pace is the linear 31/10, against 31,000.
        let framingham = try value(report, "10", "MTD", "totalSales")
        XCTAssertEqual(framingham.projection?.value ?? 0, 5000.0 * 31 / 10, accuracy: 1e-6)
        XCTAssertEqual(framingham.projection?.pctToTarget ?? 0, 15_500.0 / 31_000 - 1, accuracy: 1e-12)

        // 21: no target at all: linear, no % to target; and the region holding 21 has no target either.
        let warwick = try value(report, "21", "MTD", "totalSales")
        XCTAssertEqual(warwick.projection?.value, 2000 * 31 / 10)
        XCTAssertNil(warwick.projection?.pctToTarget)
        XCTAssertNil(try value(report, "region:South", "MTD", "totalSales").projection?.pctToTarget)

        // A region's projection uses its own summed targets, not a sum of store projections:
        // East = 08 + 10: actual 15,000, T_e 12,000 + 10,000, T_full 39,000 + 31,000.
        let east = try value(report, "region:East", "MTD", "totalSales")
        XCTAssertEqual(east.projection?.value ?? 0, 15_000.0 * 70_000 / 22_000, accuracy: 1e-6)

        // Ratio metrics are not projected; a feed never loaded has no data, so nothing to project.
        XCTAssertNil(try value(report, "10", "MTD", "upt").projection)
        let credit = try value(report, "08", "MTD", "creditApps")
        XCTAssertTrue(credit.hasNoData)
        XCTAssertNil(credit.actual)
        XCTAssertNil(credit.projection)
        // WTD (Monday July 7 – Sunday July 13) as of Thursday the 10th: 4 of 7 days.
        XCTAssertEqual(
            try value(report, "21", "WTD", "totalSales").projection?.value ?? 0, 800.0 * 7 / 4, accuracy: 1e-9)

        // As of the month's last day with sales through the 10th, July is counted to the 10th
        // (SPEC section 7): the same linear pace as on the 10th; a period starting on the as-of
        // day has e = 1.
        let monthEnd = try engine.kpi(asOf: CivilDate(year: 2025, month: 7, day: 31), filter: .stores(["21"]))
        let cut = try value(monthEnd, "21", "MTD", "totalSales")
        XCTAssertEqual(cut.projection?.value, 2000 * 31 / 10)
        XCTAssertEqual(cut.dataThrough, CivilDate(year: 2025, month: 7, day: 10))
        let firstOfMonth = try engine.kpi(asOf: CivilDate(year: 2025, month: 7, day: 1), filter: .stores(["21"]))
        XCTAssertEqual(try value(firstOfMonth, "21", "MTD", "totalSales").projection?.value, 200 * 31)

        // The review has no projections.
        let review = try engine.review(quarter: try XCTUnwrap(FiscalCalendar().quarter(named: "2025Q3")), filter: .all)
        XCTAssertTrue(
            review.scopes.allSatisfy { $0.periods.allSatisfy { $0.metrics.allSatisfy { $0.projection == nil } } })
    }
}
