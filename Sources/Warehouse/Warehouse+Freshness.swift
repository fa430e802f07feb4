import CivilCalendar
import Feeds

extension Warehouse {
    /// The last day each feed has data for, per store (SPEC section 15): a daily row's date, a
    /// weekly row's week start + 6, a monthly row's month end.
    public func lastDates() throws -> [FeedID: [String: CivilDate]] {
        return try backend.read { session in
            var result: [FeedID: [String: CivilDate]] = [:]
            for table in FeedTables.all {
                var byStore: [String: CivilDate] = [:]
                // Day rows (`YYYY-MM-DD`) sort after month rows (`YYYY-MM`) of the same month,
                // and a month row counts up to its last day: the latest of each grain decides.
                let sql =
                    table.period == .dayOrMonth
                    ? "SELECT store_code, grain, max(date) FROM \(table.name) GROUP BY store_code, grain"
                    : "SELECT store_code, 'day', max(\(table.period.dateColumn)) FROM \(table.name) GROUP BY store_code"
                try session.scan(sql) { row in
                    guard let last = Self.lastDay(of: row.text(2), daysAfterKey: table.period.daysAfterKey) else {
                        return
                    }
                    let store = row.text(0)
                    if let known = byStore[store], known >= last { return }
                    byStore[store] = last
                }
                result[table.feed] = byStore
            }
            return result
        }
    }

    /// The last day a row keyed `key` covers: a day and `daysAfterKey` more, or a month (`YYYY-MM`).
    private static func lastDay(of key: String, daysAfterKey: Int) -> CivilDate? {
        if key.utf8.count == 7, let first = CivilDate(iso8601: key + "-01") {
            return first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
        }
        guard let date = CivilDate(iso8601: key) else { return nil }
        return date.adding(days: daysAfterKey)
    }
}
