import Checks
import CivilCalendar
import Feeds

/// Loads what the checks read (SPEC section 18) for one chunk of judged days, for every store
/// with rows: the 9 weeks before the chunk (8 weeks of reference days, and a week for a repeated
/// span or a week's alignment) through 9 weeks after it (a span that goes on past the chunk is
/// seen whole), and the same days a year earlier (365 days back, and a week more) for the
/// year-ago comparisons. The days between stay empty: no check reads them.
struct AlarmSeriesLoader {
    /// Days read before the chunk for the reference days, and after it for a span that goes on.
    static let recentDays = 63
    /// Days back the year-ago window starts, and how far before the last day read it ends.
    static let yearAgoStart = 372
    static let yearAgoEnd = 357

    /// Every day the series hold (from the year-ago window's start to the last day read).
    let days: DateRange
    /// The days read: the recent window and the year-ago one (one range when they meet).
    let windows: [DateRange]
    let weekStart: Int
    /// Whether vendor and category sales per store-month are loaded (`[check] reconcile_merch`).
    let loadsMerch: Bool
    /// Per store, the days alarms may name.
    let judged: (String) -> JudgedDays

    /// The loader of the judged days `chunk` (days since the epoch), reading no day after `lastDay`.
    init(
        chunk: ClosedRange<Int>, lastDay: Int, weekStart: Int, loadsMerch: Bool,
        judged: @escaping (String) -> JudgedDays
    ) {
        let spans = Self.windows(chunk: chunk, lastDay: lastDay)
        days = DateRange(
            start: CivilDate(daysSinceEpoch: chunk.lowerBound - Self.yearAgoStart),
            end: CivilDate(daysSinceEpoch: spans.last?.upperBound ?? chunk.upperBound))
        windows = spans.map {
            DateRange(start: CivilDate(daysSinceEpoch: $0.lowerBound), end: CivilDate(daysSinceEpoch: $0.upperBound))
        }
        self.weekStart = weekStart
        self.loadsMerch = loadsMerch
        self.judged = judged
    }

    /// The days read for the judged days `chunk` (days since the epoch), reading no day after
    /// `lastDay`: the recent window and the year-ago one, one range when they meet.
    static func windows(chunk: ClosedRange<Int>, lastDay: Int) -> [ClosedRange<Int>] {
        let first = chunk.lowerBound
        let last = max(min(chunk.upperBound + recentDays, lastDay), chunk.upperBound)
        let recent = (first - recentDays)...last
        let yearAgo = (first - yearAgoStart)...(last - yearAgoEnd)
        return recent.lowerBound <= yearAgo.upperBound + 1 ? [yearAgo.lowerBound...last] : [yearAgo, recent]
    }

    /// The sales-audit day rows of a range of days (two `?`): date, store, then the columns
    /// `salesDay` reads. A weekly export's week rows are not days, and the checks judge days
    /// (docs/decisions.md#weekly-sales-exports).
    static let salesQuery = """
        SELECT date, store_code, \(SalesFigureColumns.all.joined(separator: ", ")), ingest_run_id,
            \(SalesAuditColumns.closed)
        FROM \(FeedTables.salesAudit.name) WHERE date BETWEEN ? AND ?
            AND \(SalesAuditColumns.grain) = '\(SalesAuditColumns.day)'
        """

    /// A row of `salesQuery` as the checks read it.
    static func salesDay(_ row: some ScannedRow) -> SalesDay {
        SalesDay(
            cents: row.int64(2), transactions: row.optionalInt64(3), items: row.optionalInt64(4),
            ccpMillionths: row.optionalInt64(5), gpMillionths: row.optionalInt64(6), run: row.int64(7),
            closed: row.optionalInt64(8) == 1)
    }

    /// Runs `sql` (with two `?` for a range's first and last day) over each of `ranges`.
    private func scanWindows<Session: SQLSession>(
        _ session: Session, _ ranges: [DateRange], _ sql: String, _ body: (Session.Row) throws -> Void
    ) throws {
        for window in ranges {
            try session.scan(sql, [.text(window.start.iso8601), .text(window.end.iso8601)], body)
        }
    }

    /// Every store's series over `days`: what `previous` holds of those days (the chunk before,
    /// whose `loaded` days were read) carried over, and only the rest of the windows read.
    func load(_ session: some SQLSession, carrying previous: [StoreSeries], loaded: [ClosedRange<Int>]) throws
        -> (series: [StoreSeries], loaded: [ClosedRange<Int>])
    {
        var stores = SeriesSlots(days: days, judged: judged)
        for series in previous { stores.carry(series.rebased(to: days)) }
        let kept = loaded.compactMap { range -> ClosedRange<Int>? in
            let lower = max(range.lowerBound, days.start.daysSinceEpoch)
            let upper = min(range.upperBound, days.end.daysSinceEpoch)
            return lower <= upper ? lower...upper : nil
        }
        let toRead = windows.flatMap { window in
            Self.subtracting(kept, from: window.start.daysSinceEpoch...window.end.daysSinceEpoch)
        }
        try read(
            session,
            toRead.map {
                DateRange(
                    start: CivilDate(daysSinceEpoch: $0.lowerBound), end: CivilDate(daysSinceEpoch: $0.upperBound))
            }, into: &stores)
        markCompleteWeeks(&stores.series, latestEventDay: stores.latestEventDay)
        return (stores.series, kept + toRead)
    }

    /// `range` without the days of `taken` (disjoint ranges), as ranges in order.
    static func subtracting(_ taken: [ClosedRange<Int>], from range: ClosedRange<Int>) -> [ClosedRange<Int>] {
        var pieces = [range]
        for cut in taken {
            pieces = pieces.flatMap { piece -> [ClosedRange<Int>] in
                guard piece.overlaps(cut) else { return [piece] }
                var rest: [ClosedRange<Int>] = []
                if piece.lowerBound < cut.lowerBound { rest.append(piece.lowerBound...(cut.lowerBound - 1)) }
                if piece.upperBound > cut.upperBound { rest.append((cut.upperBound + 1)...piece.upperBound) }
                return rest
            }
        }
        return pieces
    }

    /// Reads `ranges` of every table into the series.
    private func read(_ session: some SQLSession, _ ranges: [DateRange], into stores: inout SeriesSlots) throws {
        try scanWindows(session, ranges, Self.salesQuery) { row in
            guard let (slot, index) = stores.position(row) else { return }
            stores.series[slot].sales[index] = Self.salesDay(row)
        }
        try scanWindows(
            session, ranges,
            """
            SELECT date, store_code, SUM(\(SalesFigureColumns.cents)), MAX(ingest_run_id)
            FROM \(FeedTables.employeeSales.name) WHERE date BETWEEN ? AND ? AND grain = 'day'
            GROUP BY date, store_code
            """
        ) { row in
            guard let (slot, index) = stores.position(row) else { return }
            stores.series[slot].associates[index] = AssociateDay(cents: row.int64(2), run: row.int64(3))
        }
        for (table, measures) in FeedTables.measured(.day) + FeedTables.measured(.week) {
            guard case .count(let count, _) = measures else { continue }
            let (feed, dateColumn) = (table.feed, table.period.dateColumn)
            var weeks = WeekTotals(days: days, weekStart: weekStart, carried: stores.series.map { $0.eventWeeks[feed] })
            try scanWindows(
                session, ranges,
                "SELECT \(dateColumn), store_code, \(count), ingest_run_id FROM \(table.name) WHERE \(dateColumn) BETWEEN ? AND ?"
            ) { row in
                guard let (slot, index) = stores.position(row) else { return }
                let day = days.start.daysSinceEpoch + index
                if table.period == .day { stores.latestEventDay = max(stores.latestEventDay ?? day, day) }
                weeks.add(slot: slot, day: day, count: row.int64(2), run: row.int64(3))
            }
            for (slot, storeWeeks) in weeks.bySlot.enumerated() {
                if let storeWeeks { stores.series[slot].eventWeeks[feed] = storeWeeks }
            }
        }
        if loadsMerch { try loadMerch(session, into: &stores) }
    }

    /// Vendor and category sales per store-month: day rows and month rows (`YYYY-MM`) alike.
    private func loadMerch(_ session: some SQLSession, into stores: inout SeriesSlots) throws {
        let range: [SQLValue] = [.text(days.start.iso8601Month), .text(days.end.iso8601)]
        try session.scan(
            """
            SELECT substr(date, 1, 7) || '-01', store_code, CASE WHEN \(MerchSalesColumns.vendorKey) <> '' THEN 1 ELSE 0 END,
                CASE WHEN \(MerchSalesColumns.category) <> '' THEN 1 ELSE 0 END, SUM(\(MerchSalesColumns.sales)),
                MAX(ingest_run_id)
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

    /// Marks the event weeks that end by the chain's latest day of daily data in the range
    /// (sales-audit, associates, or a daily event feed: the data's "today"): a week after it is
    /// still being filled, as a weekly file's last week is when it was sent mid-week.
    private func markCompleteWeeks(_ series: inout [StoreSeries], latestEventDay: Int?) {
        let latest =
            (series.flatMap { store in
                [
                    store.sales.lastIndex { $0 != nil }.map { store.first + $0 },
                    store.associates.lastIndex { $0 != nil }.map { store.first + $0 },
                ].compactMap { $0 }
            } + [latestEventDay].compactMap { $0 }).max()
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

    init(days: DateRange, weekStart: Int, carried: [EventWeeks?]) {
        self.weekStart = weekStart
        firstWeek = days.start.daysSinceEpoch - (days.start.weekdayIndex - weekStart + 7) % 7
        weekCount = days.days / 7 + 2
        bySlot = carried
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

/// The series being filled, one per store in order of first appearance (numbered by
/// `StoreSlots`), and where each row goes: its store's series and its day's position.
private struct SeriesSlots {
    let days: DateRange
    let judged: (String) -> JudgedDays
    var series: [StoreSeries] = []
    /// The latest day of a daily event feed's rows read (days since the epoch).
    var latestEventDay: Int?
    private var stores = StoreSlots()
    /// The last date read (`yyyymmdd`) and its position: rows come date by date.
    private var lastDate = (number: 0, index: 0)

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
        let slot = stores.slot(of: row, column: 1)
        if slot == series.count {
            let code = stores.codes[slot]
            series.append(StoreSeries(store: code, days: days, judged: judged(code)))
        }
        return (slot, index)
    }

    /// Adds a series carried over from the chunk before.
    mutating func carry(_ carried: StoreSeries) {
        if stores.slot(of: carried.store) == series.count { series.append(carried) }
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
