import Checks
import CivilCalendar
import Feeds

/// Loads what the checks read (SPEC section 18) from the feed tables, for every store with rows
/// over a range of days: the judged days plus the history they are judged against (a year and a
/// week before, for the year-ago comparisons).
struct AlarmSeriesLoader {
    /// Days of history loaded before the first judged day: 364 days + a 7-day span, and then some.
    static let historyDays = 372

    let days: DateRange
    let weekStart: Int
    /// Whether vendor and category sales per store-month are loaded (`[check] reconcile_merch`).
    let loadsMerch: Bool
    /// Per store, the days alarms may name.
    let judged: (String) -> JudgedDays

    /// Every store's series over `days`.
    func load(_ session: some SQLSession) throws -> [StoreSeries] {
        var stores = StoreSlots(days: days, judged: judged)
        let range: [SQLValue] = [.text(days.start.iso8601), .text(days.end.iso8601)]
        try session.scan(
            """
            SELECT date, store_code, total_sales_cents, total_transactions, total_items, ccp_pct_millionths,
                gp_pct_millionths, ingest_run_id
            FROM \(FeedTables.salesAudit.name) WHERE date BETWEEN ? AND ?
            """, range
        ) { row in
            guard let (slot, index) = stores.position(row) else { return }
            stores.series[slot].sales[index] = SalesDay(
                cents: row.int64(2), transactions: row.int64(3), items: row.int64(4),
                ccpMillionths: row.optionalInt64(5), gpMillionths: row.optionalInt64(6), run: row.int64(7))
        }
        try session.scan(
            """
            SELECT date, store_code, SUM(total_sales_cents), MAX(ingest_run_id)
            FROM \(FeedTables.employeeSales.name) WHERE date BETWEEN ? AND ? AND grain = 'day'
            GROUP BY date, store_code
            """, range
        ) { row in
            guard let (slot, index) = stores.position(row) else { return }
            stores.series[slot].associates[index] = AssociateDay(cents: row.int64(2), run: row.int64(3))
        }
        for (feed, table, dateColumn, count) in [
            (FeedID.creditApps, FeedTables.creditApplications.name, "date", "total_applications"),
            (FeedID.crmIntakes, FeedTables.crmIntakes.name, "date", "total_intakes"),
            (FeedID.birdeyeReviews, FeedTables.birdeyeReviews.name, "week_start", "review_count"),
            (FeedID.outboundCalls, FeedTables.outboundCalls.name, "week_start", "total_calls"),
        ] {
            var weeks = WeekTotals(days: days, weekStart: weekStart)
            try session.scan(
                "SELECT \(dateColumn), store_code, \(count), ingest_run_id FROM \(table) WHERE \(dateColumn) BETWEEN ? AND ?",
                range
            ) { row in
                guard let (slot, index) = stores.position(row) else { return }
                weeks.add(slot: slot, day: days.start.daysSinceEpoch + index, count: row.int64(2), run: row.int64(3))
            }
            for (slot, storeWeeks) in weeks.bySlot.enumerated() {
                if let storeWeeks { stores.series[slot].eventWeeks[feed] = storeWeeks }
            }
        }
        if loadsMerch { try loadMerch(session, into: &stores) }
        markCompleteWeeks(&stores.series)
        return stores.series
    }

    /// Vendor and category sales per store-month: day rows and month rows (`YYYY-MM`) alike.
    private func loadMerch(_ session: some SQLSession, into stores: inout StoreSlots) throws {
        let range: [SQLValue] = [.text(String(days.start.iso8601.prefix(7))), .text(days.end.iso8601)]
        try session.scan(
            """
            SELECT substr(date, 1, 7) || '-01', store_code, CASE WHEN vendor_key <> '' THEN 1 ELSE 0 END,
                CASE WHEN category <> '' THEN 1 ELSE 0 END, SUM(total_sales_cents), MAX(ingest_run_id)
            FROM \(FeedTables.merchSales.name) WHERE date BETWEEN ? AND ?
            GROUP BY 1, 2, 3, 4
            """, range
        ) { row in
            guard let (slot, index) = stores.position(row) else { return }
            let month = days.start.daysSinceEpoch + index
            var entry =
                stores.series[slot].merchMonths[month] ?? MerchMonth(vendorCents: nil, categoryCents: nil, run: 0)
            let cents = row.int64(4)
            if row.int64(2) != 0 { entry.vendorCents = (entry.vendorCents ?? 0) + cents }
            if row.int64(3) != 0 { entry.categoryCents = (entry.categoryCents ?? 0) + cents }
            entry.run = max(entry.run, row.int64(5))
            stores.series[slot].merchMonths[month] = entry
        }
    }

    /// Marks the event weeks that end by the chain's latest sales-audit day in the range (the
    /// data's "today"): a week after it is still being filled.
    private func markCompleteWeeks(_ series: inout [StoreSeries]) {
        let latest = series.compactMap { store in store.sales.lastIndex { $0 != nil }.map { store.first + $0 } }.max()
        let end = min(latest ?? days.end.daysSinceEpoch, days.end.daysSinceEpoch)
        for store in series.indices {
            for feed in series[store].eventWeeks.keys {
                for week in series[store].eventWeeks[feed]?.starts ?? [] {
                    series[store].eventWeeks[feed]?[week]?.complete = week + 6 <= end
                }
            }
        }
    }

}

/// One event feed's counts per store-week while its rows are read, by store slot: a day's (or
/// a week's) count goes to the week holding it, by the configured week start.
private struct WeekTotals {
    let firstWeek: Int
    let weekCount: Int
    let weekStart: Int
    private(set) var bySlot: [EventWeeks?] = []

    init(days: DateRange, weekStart: Int) {
        self.weekStart = weekStart
        firstWeek = days.start.daysSinceEpoch - (days.start.weekdayIndex - weekStart + 7) % 7
        weekCount = days.days / 7 + 2
    }

    mutating func add(slot: Int, day: Int, count: Int64, run: Int64) {
        // 1970-01-01 was a Thursday (weekday 3, from Monday 0), as `CivilDate.weekdayIndex` counts.
        let weekday = ((day % 7) + 7 + 3) % 7
        let week = day - (weekday - weekStart + 7) % 7
        if slot >= bySlot.count { bySlot += Array(repeating: nil, count: slot - bySlot.count + 1) }
        if bySlot[slot] == nil { bySlot[slot] = EventWeeks(first: firstWeek, count: weekCount) }
        var entry = bySlot[slot]?[week] ?? EventWeek(count: 0, run: run, complete: false)
        entry.count += count
        entry.run = max(entry.run, run)
        bySlot[slot]?[week] = entry
    }
}

/// The series being filled, one per store in order of first appearance, found by the store
/// code's bytes (packed into an integer when short) without making a string per row: first as
/// the slot after the last row's (rows come date by date, the stores in the same order each
/// day), else by a lookup.
private struct StoreSlots {
    let days: DateRange
    let judged: (String) -> JudgedDays
    var series: [StoreSeries] = []
    /// Each slot's packed code (`nil` for a long one), and the last row's slot.
    private var packedCodes: [UInt64?] = []
    private var lastSlot = -1
    /// The last date read (`yyyymmdd`) and its position: rows come date by date.
    private var lastDate = (number: 0, index: 0)
    private var byPackedCode: [UInt64: Int] = [:]
    private var byCode: [String: Int] = [:]

    init(days: DateRange, judged: @escaping (String) -> JudgedDays) {
        self.days = days
        self.judged = judged
    }

    /// The slot of the row's store (column 1) and the position of its day (column 0); `nil`
    /// for a day outside the range.
    mutating func position(_ row: some ScannedRow) -> (slot: Int, index: Int)? {
        let index: Int
        if lastDate.number != 0, row.dateNumber(0) == lastDate.number {
            index = lastDate.index
        } else {
            guard let day = row.dayNumber(0) else { return nil }
            index = day - days.start.daysSinceEpoch
            lastDate = (row.dateNumber(0), index)
        }
        guard index >= 0, index < days.days else { return nil }
        lastSlot = slot(row)
        return (lastSlot, index)
    }

    private mutating func slot(_ row: some ScannedRow) -> Int {
        if let packed = row.packedText(1) {
            let next = lastSlot + 1 < packedCodes.count ? lastSlot + 1 : 0
            if next < packedCodes.count, packedCodes[next] == packed { return next }
            if let slot = byPackedCode[packed] { return slot }
            let slot = add(row.text(1), packed: packed)
            byPackedCode[packed] = slot
            return slot
        }
        let code = row.text(1)
        if let slot = byCode[code] { return slot }
        let slot = add(code, packed: nil)
        byCode[code] = slot
        return slot
    }

    private mutating func add(_ code: String, packed: UInt64?) -> Int {
        series.append(StoreSeries(store: code, days: days, judged: judged(code)))
        packedCodes.append(packed)
        return series.count - 1
    }
}

extension ScannedRow {
    /// A `YYYY-MM-DD` column as days since 1970-01-01, `nil` when it is not such a date.
    func dayNumber(_ column: Int32) -> Int? {
        guard let bytes = bytes(column), bytes.count == 10 else { return nil }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for offset in range {
                let byte = bytes[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10) else { return nil }
        return CivilDate.daysSinceEpoch(year: year, month: month, day: day)
    }
}
