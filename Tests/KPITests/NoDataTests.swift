import CivilCalendar
import Feeds
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// A missing export is not a zero day (SPEC section 7): a period after a feed's last data day has
/// no data for its metrics, one the last day ends inside is counted up to it, and a report none
/// of whose periods has data is refused.
final class NoDataTests: TemporaryWarehouseTestCase {
    /// Store 10 sells 500 a day from 2025-07-01 to 07-12 and takes two credit applications a day
    /// from 07-01 to 07-03 only; July's targets: sales 31,000, credit apps 62.
    private func engine() throws -> KPIEngine {
        let warehouse = try Warehouse(path: directory.appendingPathComponent("w.sqlite").path)
        SampleWarehouse.ingest(
            try file("stores.csv", "code,name,region\n10,Framingham,East\n"), as: .stores, into: warehouse)
        var sales = "Store,Date,Net Sales,Transactions,Items\n"
        for day in 1...12 { sales += "10,2025-07-\(String(format: "%02d", day)),500,5,6\n" }
        SampleWarehouse.ingest(try file("sales_audit.csv", sales), as: .salesAudit, into: warehouse)
        var credit = "Store No;App Date;Applicant Name;Credit Limit\n"
        for day in 1...3 {
            for applicant in ["Eve Diaz", "Ann Lee"] { credit += "10;2025-07-0\(day);\(applicant);1500\n" }
        }
        XCTAssertEqual(
            SampleWarehouse.ingest(try file("credit_applications.csv", credit), as: .creditApps, into: warehouse)
                .status, .ok)
        SampleWarehouse.ingest(
            try file(
                "goals.csv",
                "period,scope,metric,target\n2025-07,10,totalSales,31000\n2025-07,10,creditApps,62\n"),
            as: .goals, into: warehouse)
        return KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
    }

    /// As of Saturday 07-12: credit apps have no data in WTD (from Monday 07-07, after their last
    /// day 07-03), never `0 ▼ −100%`; MTD counts them through 07-03 against the target of those
    /// three days; sales, through 07-12, are untouched.
    func testAPeriodAfterAFeedsLastDayHasNoDataAndOneItEndsInsideIsCutThere() throws {
        let report = try engine().kpi(asOf: CivilDate(year: 2025, month: 7, day: 12), filter: .all)
        XCTAssertFalse(report.isLatestData)

        let week = try value(report, "10", "WTD", "creditApps")
        XCTAssertTrue(week.hasNoData)
        XCTAssertNil(week.actual)
        XCTAssertNil(week.pctToTarget, "no data is not −100 %")
        XCTAssertNil(week.projection)
        XCTAssertNil(week.dataThrough)
        XCTAssertEqual(try value(report, "10", "WTD", "totalSales").actual, 3_000, "sales Monday to Saturday")

        let month = try value(report, "10", "MTD", "creditApps")
        XCTAssertFalse(month.hasNoData)
        XCTAssertEqual(month.dataThrough, CivilDate(year: 2025, month: 7, day: 3))
        XCTAssertEqual(month.actual, 6)
        XCTAssertEqual(month.target ?? 0, 62.0 * 3 / 31, accuracy: 1e-9, "the target of the days counted")
        XCTAssertEqual(month.pctToTarget ?? 0, 6 / (62.0 * 3 / 31) - 1, accuracy: 1e-9)
        XCTAssertEqual(month.projection?.value ?? 0, 62, accuracy: 1e-9, "on pace over the days counted")
        XCTAssertEqual(month.full?.remainingDays, 28, "the days after 07-03")

        let sales = try value(report, "10", "MTD", "totalSales")
        XCTAssertNil(sales.dataThrough)
        XCTAssertEqual(sales.actual, 6_000)
        XCTAssertEqual(sales.full?.remainingDays, 19)
    }

    /// Without an as-of date kpi reads as of the latest sales-audit day, and says so.
    func testKPIDefaultsToTheLatestSalesDay() throws {
        let report = try engine().kpi(filter: .all)
        XCTAssertEqual(report.asOf, CivilDate(year: 2025, month: 7, day: 12))
        XCTAssertTrue(report.isLatestData)
        XCTAssertEqual(try value(report, "ALL", "MTD", "totalSales").actual, 6_000)
    }

    /// A kpi or review none of whose periods has data names the period and the data's last day.
    func testNoPeriodWithDataIsRefused() throws {
        let engine = try engine()
        XCTAssertThrowsError(try engine.kpi(asOf: CivilDate(year: 2026, month: 2, day: 1), filter: .all)) {
            XCTAssertEqual("\($0)", "no data as of 2026-02-01: data through 2025-07-12")
        }
        let quarter = try XCTUnwrap(engine.calendar.quarter(named: "2025Q4"))
        XCTAssertThrowsError(
            try engine.review(quarter: quarter, asOf: CivilDate(year: 2025, month: 11, day: 15), filter: .all)
        ) {
            XCTAssertEqual("\($0)", "no data for 2025Q4: data through 2025-07-12")
        }
        let september = try engine.kpi(asOf: CivilDate(year: 2025, month: 9, day: 30), filter: .all)
        XCTAssertTrue(try value(september, "10", "QTD", "totalSales").hasNoData == false)
        XCTAssertTrue(try value(september, "10", "MTD", "totalSales").hasNoData, "September starts after 07-12")
        XCTAssertEqual(
            try value(september, "10", "QTD", "totalSales").dataThrough, CivilDate(year: 2025, month: 7, day: 12))
    }

    /// A weekly total without daily counts is credited to its week start (SPEC section 7), so the
    /// month after a week that starts on 06-30 has no data for it, not `0 ▼ −100%`, while a week
    /// whose days are known credits July with its July days.
    func testAWeekWithoutDailyCountsLeavesTheNextMonthWithoutData() throws {
        let engine = try engine()
        SampleWarehouse.ingest(
            try file("reviews.csv", "Store,Week,Reviews\n10,2025-06-30,4\n"), as: .birdeyeReviews,
            into: engine.warehouse)
        SampleWarehouse.ingest(
            try file("calls.csv", "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n10,2025-06-30,1,2,0,0,0,0,0\n"),
            as: .outboundCalls, into: engine.warehouse)
        let report = try engine.kpi(asOf: CivilDate(year: 2025, month: 7, day: 12), filter: .all)

        let reviews = try value(report, "10", "MTD", "birdeyeReviews")
        XCTAssertTrue(reviews.hasNoData, "the week of 06-30 counts in June")
        XCTAssertNil(reviews.pctVsLY)
        XCTAssertEqual(try value(report, "10", "YTD", "birdeyeReviews").actual, 4)

        let calls = try value(report, "10", "MTD", "outboundCalls")
        XCTAssertFalse(calls.hasNoData)
        XCTAssertEqual(calls.actual, 2, "Tuesday 07-01")
        XCTAssertEqual(calls.dataThrough, CivilDate(year: 2025, month: 7, day: 6))
    }
}
