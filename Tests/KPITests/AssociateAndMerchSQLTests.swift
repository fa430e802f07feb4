import CivilCalendar
import Feeds
import GRDB
import TestSupport
import Warehouse
import XCTest

@testable import KPI

/// `employees` and `merch` on SampleFeeds against plain SQL written apart from the engine
/// (SPEC sections 9 and 10): at least ten values of each report.
final class AssociateAndMerchSQLTests: XCTestCase {
    private static var directory: URL?
    private static var warehouse: Warehouse?

    private func sample() throws -> Warehouse {
        if let warehouse = Self.warehouse { return warehouse }
        let directory = try TestPaths.temporaryDirectory()
        let warehouse = try SampleWarehouse.sampleFeeds(at: directory.appendingPathComponent("sample.sqlite").path)
        Self.directory = directory
        Self.warehouse = warehouse
        return warehouse
    }

    override class func tearDown() {
        warehouse = nil
        if let directory { try? FileManager.default.removeItem(at: directory) }
        super.tearDown()
    }

    private func sql(_ query: String) throws -> Double {
        try sample().sqliteQueue().read { db in try Double.fetchOne(db, sql: query) ?? .nan }
    }

    func testEmployeesAgainstSQL() throws {
        let engine = KPIEngine(warehouse: try sample(), calendar: FiscalCalendar())
        let report = try engine.employees(
            asOf: CivilDate(year: 2025, month: 6, day: 30), period: "QTD", filter: .all, top: 20)
        func row(_ scope: String, _ id: String) throws -> AssociateRow {
            try XCTUnwrap(report.scopes.first { $0.scope == scope }?.associates.first { $0.employeeId == id })
        }
        let daily = "FROM employee_report WHERE grain = 'day' AND date BETWEEN '2025-04-01' AND '2025-06-30'"
        // 1–3: sales, transactions and items of an associate at a store.
        XCTAssertEqual(
            try row("08", "215").metrics[0].value,
            try sql("SELECT sum(total_sales_cents) / 100.0 \(daily) AND store_code = '08' AND employee_id = '215'"))
        XCTAssertEqual(
            try row("08", "215").metrics[1].value,
            try sql("SELECT sum(total_transactions) \(daily) AND store_code = '08' AND employee_id = '215'"))
        XCTAssertEqual(
            try row("10", "42").metrics[2].value,
            try sql("SELECT sum(total_items) \(daily) AND store_code = '10' AND employee_id = '42'"))
        // 4: the floater summed over both stores in ALL.
        XCTAssertEqual(
            try row("ALL", "7").metrics[0].value,
            try sql("SELECT sum(total_sales_cents) / 100.0 \(daily) AND employee_id = '7'"))
        // 5: avgAds, one division of exact sums.
        XCTAssertEqual(
            try row("12", "301").metrics[3].value,
            try sql(
                "SELECT 1.0 * sum(total_sales_cents) / (sum(total_transactions) * 100) \(daily) AND store_code = '12' AND employee_id = '301'"
            ))
        // 6: CCP % over the rows that report it.
        XCTAssertEqual(
            try row("21", "410").metrics[5].value,
            try sql(
                """
                SELECT 1.0 * sum(ccp_pct_millionths * total_items) / (sum(CASE WHEN ccp_pct_millionths IS NOT NULL THEN total_items END) * 1000000)
                \(daily) AND store_code = '21' AND employee_id = '410'
                """))
        // 7: share of the store's associate sales.
        XCTAssertEqual(
            try row("08", "0042").share ?? .nan,
            try sql(
                """
                SELECT 1.0 * (SELECT sum(total_sales_cents) \(daily) AND store_code = '08' AND employee_id = '0042')
                    / (SELECT sum(total_sales_cents) \(daily) AND store_code = '08')
                """))
        // 8–9: LY from 2024's monthly rows (April–June 2024 are whole months of the LY range).
        let lastYear = "FROM employee_report WHERE grain = 'month' AND date IN ('2024-04', '2024-05', '2024-06')"
        XCTAssertEqual(
            try row("23", "505").lySales,
            try sql("SELECT sum(total_sales_cents) / 100.0 \(lastYear) AND store_code = '23' AND employee_id = '505'"))
        XCTAssertEqual(
            try row("ALL", "7").lySales,
            try sql("SELECT sum(total_sales_cents) / 100.0 \(lastYear) AND employee_id = '7'"))
        // 10: the associate with the most sales chain-wide is ranked first.
        XCTAssertEqual(
            report.scopes.last?.associates.first?.employeeId,
            try sample().sqliteQueue().read { db in
                try String.fetchOne(
                    db,
                    sql: "SELECT employee_id \(daily) GROUP BY employee_id ORDER BY sum(total_sales_cents) DESC LIMIT 1"
                )
            })
        // 11: a store's associates add up to its sales-audit sales (the sample is built that way).
        let storeTotal = report.scopes.first { $0.scope == "27" }?.associates.compactMap { $0.metrics[0].value }.reduce(
            0, +)
        XCTAssertEqual(
            storeTotal ?? 0,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM store_report WHERE store_code = '27' AND date BETWEEN '2025-04-01' AND '2025-06-30'"
            ), accuracy: 1e-6)
    }

    func testMerchAgainstSQL() throws {
        let engine = KPIEngine(warehouse: try sample(), calendar: FiscalCalendar())
        let quarter = try XCTUnwrap(engine.calendar.quarter(named: "2025Q2"))
        let vendors = try engine.merch(quarter: quarter, by: .vendor, filter: .all, top: 5)
        func vendor(_ scope: String, _ key: String) throws -> MerchRow {
            try XCTUnwrap(vendors.scopes.first { $0.scope == scope }?.rows.first { $0.key == key })
        }
        let q2 = "FROM merch_report WHERE date IN ('2025-04', '2025-05', '2025-06') AND vendor_key <> ''"
        let ly = "FROM merch_report WHERE date IN ('2024-04', '2024-05', '2024-06') AND vendor_key <> ''"
        let topKey = try sample().sqliteQueue().read { db in
            try String.fetchOne(
                db,
                sql:
                    "SELECT vendor_key \(q2) AND store_code = '08' GROUP BY vendor_key ORDER BY sum(total_sales_cents) DESC, vendor_key LIMIT 1"
            )
        }
        let top = try XCTUnwrap(topKey)
        // 1–2: the top vendor at a store and its sales; 3: items; 4: average price.
        XCTAssertEqual(vendors.scopes.first?.rows.first?.key, top)
        XCTAssertEqual(
            try vendor("08", top).sales,
            try sql("SELECT sum(total_sales_cents) / 100.0 \(q2) AND store_code = '08' AND vendor_key = '\(top)'"))
        XCTAssertEqual(
            Double(try vendor("08", top).items),
            try sql("SELECT sum(total_items) \(q2) AND store_code = '08' AND vendor_key = '\(top)'"))
        XCTAssertEqual(
            try vendor("08", top).averagePrice ?? .nan,
            try sql(
                "SELECT 1.0 * sum(total_sales_cents) / (sum(total_items) * 100) \(q2) AND store_code = '08' AND vendor_key = '\(top)'"
            ))
        // 5: share of the store's vendor sales; 6: LY sales; 7: LY rank.
        XCTAssertEqual(
            try vendor("08", top).share ?? .nan,
            try sql(
                "SELECT 1.0 * (SELECT sum(total_sales_cents) \(q2) AND store_code = '08' AND vendor_key = '\(top)') / (SELECT sum(total_sales_cents) \(q2) AND store_code = '08')"
            ))
        XCTAssertEqual(
            try vendor("08", top).lySales,
            try sql(
                "SELECT coalesce(sum(total_sales_cents), 0) / 100.0 \(ly) AND store_code = '08' AND vendor_key = '\(top)'"
            ))
        XCTAssertEqual(
            Double(try vendor("08", top).rankLY ?? 0),
            try sql(
                """
                SELECT 1 + count(*) FROM (SELECT vendor_key, sum(total_sales_cents) AS s \(ly) AND store_code = '08' GROUP BY vendor_key)
                WHERE s > (SELECT sum(total_sales_cents) \(ly) AND store_code = '08' AND vendor_key = '\(top)')
                """))
        // 8: (other) is every listed-period vendor past the top 5.
        let all = try XCTUnwrap(vendors.scopes.last)
        XCTAssertEqual(
            all.rows.reduce(0) { $0 + $1.sales }, try sql("SELECT sum(total_sales_cents) / 100.0 \(q2)"), accuracy: 1e-6
        )
        // 9: a region's vendor sales.
        let south = try XCTUnwrap(vendors.scopes.first { $0.scope == "region:South" }?.rows.first)
        XCTAssertEqual(
            south.sales,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 \(q2) AND vendor_key = '\(south.key)' AND store_code IN (SELECT code FROM store WHERE region = 'South')"
            ))
        // 10–11: categories QTD as of 2025-06-15 from daily rows, and their LY.
        let categories = try engine.merch(
            asOf: CivilDate(year: 2025, month: 6, day: 15), period: "QTD", by: .category, filter: .stores(["21"]),
            top: 10)
        let bridal = try XCTUnwrap(categories.scopes.first?.rows.first { $0.key == "Bridal" })
        XCTAssertEqual(
            bridal.sales,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM merch_report WHERE grain = 'day' AND store_code = '21' AND category = 'Bridal' AND date BETWEEN '2025-04-01' AND '2025-06-15'"
            ))
        XCTAssertEqual(
            bridal.lySales,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM merch_report WHERE grain = 'day' AND store_code = '21' AND category = 'Bridal' AND date BETWEEN '2024-04-01' AND '2024-06-15'"
            ))
        // 12: category sales of a store add up to its sales-audit sales (the sample is built that way).
        XCTAssertEqual(
            categories.scopes.first?.rows.reduce(0) { $0 + $1.sales } ?? 0,
            try sql(
                "SELECT sum(total_sales_cents) / 100.0 FROM store_report WHERE store_code = '21' AND date BETWEEN '2025-04-01' AND '2025-06-15'"
            ), accuracy: 1e-6)
    }
}
