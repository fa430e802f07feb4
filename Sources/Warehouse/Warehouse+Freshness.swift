import Feeds
import GRDB
import SheetStream

extension Warehouse {
    /// The last day each feed has data for, per store (SPEC section 15): a daily row's date, a
    /// weekly row's week start + 6, a monthly row's month end.
    public func lastDates() throws -> [FeedID: [String: CivilDate]] {
        let monthEnd = "CASE grain WHEN 'month' THEN date(date || '-01', '+1 month', '-1 day') ELSE date END"
        let queries: [(FeedID, String)] = [
            (.salesAudit, "SELECT store_code, max(date) FROM store_report GROUP BY store_code"),
            (.creditApps, "SELECT store_code, max(date) FROM credit_report GROUP BY store_code"),
            (.birdeyeReviews, "SELECT store_code, date(max(week_start), '+6 days') FROM birdeye_report GROUP BY store_code"),
            (.crmIntakes, "SELECT store_code, max(date) FROM crm_intake_report GROUP BY store_code"),
            (.outboundCalls, "SELECT store_code, date(max(week_start), '+6 days') FROM outbound_call_report GROUP BY store_code"),
            (.employeePerformance, "SELECT store_code, max(\(monthEnd)) FROM employee_report GROUP BY store_code"),
            (.merchSales, "SELECT store_code, max(\(monthEnd)) FROM merch_report GROUP BY store_code"),
        ]
        return try pool.read { db in
            var result: [FeedID: [String: CivilDate]] = [:]
            for (feed, sql) in queries {
                var byStore: [String: CivilDate] = [:]
                for row in try GRDB.Row.fetchAll(db, sql: sql) {
                    let store: String = row[0]
                    if let text: String = row[1], let date = CivilDate(iso8601: text) { byStore[store] = date }
                }
                result[feed] = byStore
            }
            return result
        }
    }
}
