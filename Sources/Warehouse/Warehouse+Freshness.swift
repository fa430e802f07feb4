import CivilCalendar
import Feeds

extension Warehouse {
    /// The last day each feed has data for as of `asOf`, per store (SPEC sections 7 and 15): over
    /// the rows on or before it, a daily row's date, a weekly row's week start + 6 and a monthly
    /// row's month end, each capped at `asOf`, so no row after it counts.
    public func lastDates(notAfter asOf: CivilDate) throws -> [FeedID: [String: CivilDate]] {
        return try backend.read { session in
            var result: [FeedID: [String: CivilDate]] = [:]
            for table in FeedTables.all {
                var byStore: [String: CivilDate] = [:]
                // Day rows (`YYYY-MM-DD`) sort after month rows (`YYYY-MM`) of the same month,
                // and a month row counts up to its last day: the latest of each grain decides.
                // A month key sorts before every day of its month, so `<=` keeps the as-of month's.
                // The sales audit's week rows (SPEC section 26) cover six days after their key.
                let sql =
                    table.declares(FeedTables.grainColumnName)
                    ? "SELECT store_code, grain, max(date) FROM \(table.name) WHERE date <= ? GROUP BY store_code, grain"
                    : "SELECT store_code, 'day', max(\(table.period.dateColumn)) FROM \(table.name) "
                        + "WHERE \(table.period.dateColumn) <= ? GROUP BY store_code"
                try session.scan(sql, [.text(asOf.iso8601)]) { row in
                    guard
                        let last = Self.lastDay(
                            of: row.text(2), daysAfterKey: Self.daysAfterKey(table, grain: row.text(1)))
                    else { return }
                    let store = row.text(0)
                    let capped = min(last, asOf)
                    if let known = byStore[store], known >= capped { return }
                    byStore[store] = capped
                }
                result[table.feed] = byStore
            }
            return result
        }
    }

    /// `lastDates(notAfter:)` as `status` judges it: for a role `ddkpi access` scoped, each feed
    /// of `chainWide` (the event feeds) carries its last day over every store, under `ALL`
    /// (SPEC section 23).
    public func lastDates(notAfter asOf: CivilDate, chainWide feeds: Set<FeedID>) throws
        -> [FeedID: [String: CivilDate]]
    {
        var dates = try lastDates(notAfter: asOf)
        guard try readerScope() != nil else { return dates }
        let chain = try chainLastDays(notAfter: asOf, creditedOnly: false)
        for feed in feeds { dates[feed] = chain[feed].map { [ScopeID.all.description: $0] } ?? [:] }
        return dates
    }

    /// Each feed's last data day as of `asOf` over every store of the warehouse (SPEC section 7),
    /// whoever reads it; a feed without a row on or before it is absent.
    public func feedLastDays(notAfter asOf: CivilDate) throws -> [FeedID: CivilDate] {
        guard try readerScope() != nil else {
            return try lastDates(notAfter: asOf).compactMapValues { $0.values.max() }
        }
        return try chainLastDays(notAfter: asOf, creditedOnly: false)
    }

    /// Each feed's last day over every store as a role `ddkpi access` scoped reads it: through
    /// the owner's `ddkpi_feed_last_keys`, which names no store (SPEC section 7: any role reads
    /// each feed's last day). `creditedOnly`: a week of totals counts for its week start alone.
    private func chainLastDays(notAfter asOf: CivilDate, creditedOnly: Bool) throws -> [FeedID: CivilDate] {
        let tables = Dictionary(uniqueKeysWithValues: FeedTables.all.map { ($0.name, $0) })
        return try backend.read { session in
            var result: [FeedID: CivilDate] = [:]
            try session.scan("SELECT table_name, grain, last_key FROM ddkpi_feed_last_keys(?)", [.text(asOf.iso8601)]) {
                row in
                guard let table = tables[row.text(0)], let key = row.optionalText(2) else { return }
                let grain = row.text(1)
                let totalsOnly = grain == "totals" || grain == SalesAuditColumns.week
                let daysAfter = creditedOnly && totalsOnly ? 0 : Self.daysAfterKey(table, grain: grain)
                guard let last = Self.lastDay(of: key, daysAfterKey: daysAfter) else { return }
                let capped = min(last, asOf)
                if let known = result[table.feed], known >= capped { return }
                result[table.feed] = capped
            }
            return result
        }
    }

    /// Each feed's last day that a period can be credited with as of `asOf` (SPEC section 7): its
    /// last data day, except that a weekly row without daily counts (and a weekly sales export's
    /// row) is credited to its week start alone, so the period after that week has no data
    /// rather than a zero. `lastDays` are the feeds' last data days as of `asOf`
    /// (`feedLastDays`), which the daily feeds keep.
    public func feedAttributedLastDays(notAfter asOf: CivilDate, lastDays: [FeedID: CivilDate]) throws
        -> [FeedID: CivilDate]
    {
        if try readerScope() != nil { return try chainLastDays(notAfter: asOf, creditedOnly: true) }
        var result = lastDays
        try backend.read { session in
            let sales = FeedTables.salesAudit.name
            let salesSQL = """
                SELECT max(CASE WHEN grain = '\(SalesAuditColumns.week)' THEN date END),
                       max(CASE WHEN grain <> '\(SalesAuditColumns.week)' THEN date END)
                FROM \(sales) WHERE date <= ?
                """
            try session.scan(salesSQL, [.text(asOf.iso8601)]) { row in
                guard let weekStart = row.optionalText(0).flatMap(CivilDate.init(iso8601:)) else { return }
                let day = row.optionalText(1).flatMap(CivilDate.init(iso8601:))
                result[.salesAudit] = [weekStart, day].compactMap { $0 }.max()
            }
            for table in FeedTables.all where table.period == .week {
                let sql = """
                    SELECT max(CASE WHEN day_0 IS NULL THEN week_start END),
                           max(CASE WHEN day_0 IS NOT NULL THEN week_start END)
                    FROM \(table.name) WHERE week_start <= ?
                    """
                try session.scan(sql, [.text(asOf.iso8601)]) { row in
                    let totalsOnly = row.optionalText(0).flatMap(CivilDate.init(iso8601:))
                    let daily = row.optionalText(1).flatMap(CivilDate.init(iso8601:)).map {
                        min($0.adding(days: 6), asOf)
                    }
                    result[table.feed] = [totalsOnly, daily].compactMap { $0 }.max()
                }
            }
        }
        return result
    }

    /// Days a row of `table` with `grain` covers after its key's day: a store-week's six (a
    /// week table's, or the sales audit's `week` rows), else none.
    private static func daysAfterKey(_ table: any FeedTableDescription, grain: String) -> Int {
        grain == SalesAuditColumns.week ? 6 : table.period.daysAfterKey
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

extension Warehouse {
    /// The latest sales-audit day no later than `notAfter` (any, when `nil`) of any of `stores`
    /// (every store when `nil`): what a document's "data through" says, and `check`'s default
    /// as-of day; a weekly export's last week counts to its last day (capped at `notAfter`). One
    /// backward step along the table's `(date, store_code)` key, not a scan of every feed like
    /// `lastDates()`.
    public func latestSalesDate(stores: [String]? = nil, notAfter: CivilDate? = nil) throws -> CivilDate? {
        let table = FeedTables.salesAudit
        let date = table.period.dateColumn
        var sql = "SELECT \(date), \(SalesAuditColumns.grain) FROM \(table.name) WHERE \(date) <= ?"
        var arguments = [SQLValue.text(notAfter?.iso8601 ?? "9999-12-31")]
        if let stores {
            guard !stores.isEmpty else { return nil }
            sql += " AND store_code IN (" + stores.map { _ in "?" }.joined(separator: ",") + ")"
            arguments += stores.map(SQLValue.text)
        }
        sql += " ORDER BY \(date) DESC LIMIT 1"

        return try backend.read { session in
            var latest: CivilDate?
            try session.scan(sql, arguments) { row in
                latest = CivilDate(iso8601: row.text(0)).map {
                    row.text(1) == SalesAuditColumns.week ? $0.adding(days: 6) : $0
                }
            }
            guard let latest, let notAfter else { return latest }
            return min(latest, notAfter)
        }
    }
}
