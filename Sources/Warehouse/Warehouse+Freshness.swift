import CivilCalendar
import Feeds

extension Warehouse {
    /// The last day each feed has data for, per store (SPEC section 15): a daily row's date, a
    /// weekly row's week start + 6, a monthly row's month end.
    public func lastDates() throws -> [FeedID: [String: CivilDate]] {
        let tables: [(FeedID, table: String, dateColumn: String, grained: Bool)] = [
            (.salesAudit, "store_report", "date", false),
            (.creditApps, "credit_report", "date", false),
            (.birdeyeReviews, "birdeye_report", "week_start", false),
            (.crmIntakes, "crm_intake_report", "date", false),
            (.outboundCalls, "outbound_call_report", "week_start", false),
            (.employeePerformance, "employee_report", "date", true),
            (.merchSales, "merch_report", "date", true),
        ]
        return try backend.read { session in
            var result: [FeedID: [String: CivilDate]] = [:]
            for (feed, table, dateColumn, grained) in tables {
                var byStore: [String: CivilDate] = [:]
                // Day rows (`YYYY-MM-DD`) sort after month rows (`YYYY-MM`) of the same month,
                // and a month row counts up to its last day: the latest of each grain decides.
                let sql = grained
                    ? "SELECT store_code, grain, max(date) FROM \(table) GROUP BY store_code, grain"
                    : "SELECT store_code, 'day', max(\(dateColumn)) FROM \(table) GROUP BY store_code"
                try session.scan(sql) { row in
                    guard let last = Self.lastDay(of: row.text(2), weekly: dateColumn == "week_start") else { return }
                    let store = row.text(0)
                    if let known = byStore[store], known >= last { return }
                    byStore[store] = last
                }
                result[feed] = byStore
            }
            return result
        }
    }

    /// The last day a row keyed `key` covers: a day, a week start's week, or a month (`YYYY-MM`).
    private static func lastDay(of key: String, weekly: Bool) -> CivilDate? {
        if key.utf8.count == 7, let first = CivilDate(iso8601: key + "-01") {
            return first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
        }
        guard let date = CivilDate(iso8601: key) else { return nil }
        return weekly ? date.adding(days: 6) : date
    }
}
