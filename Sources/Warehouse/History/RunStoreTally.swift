import CivilCalendar
import Feeds

/// What one run wrote per store: its records and the first and last date key of each store's
/// rows, counted as the records are written; `counts` splits them into inserted, updated and
/// unchanged once the file is written (SPEC section 16: the ledger keeps them per store).
struct RunStoreTally {
    /// A store's records in the file and their date span, as sortable numbers.
    struct Span {
        var records = 0
        var first = Int.max
        var last = Int.min
    }

    /// The stores, numbered as the records bring them, and each one's span by that number.
    private var stores = StoreSlots()
    private var spansBySlot: [Span] = []

    /// Whether each store's date keys came in strictly ascending order (no store's date twice):
    /// then a table keyed by date and store got a key of its own from every record.
    private(set) var datesAscendPerStore = true
    /// The records counted, every store's.
    private(set) var records = 0

    /// The stores of the run's records, in the order they came: a store's number is its index.
    var storeCodes: [String] { stores.codes }

    /// Each store's span, by store code.
    var spans: [String: Span] {
        Dictionary(uniqueKeysWithValues: zip(stores.codes, spansBySlot))
    }

    /// Counts a record of `store` keyed by `date`; returns the store's number (`storeCodes`).
    @discardableResult
    mutating func add(store: String, date: CivilDate) -> Int {
        add(store: store, dateNumber: date.year * 10_000 + date.month * 100 + date.day)
    }

    /// Counts a record of `store` over a day or a month (a month sorts before its days, as its
    /// `YYYY-MM` key does before `YYYY-MM-DD`).
    mutating func add(store: String, grain: ReportGrain) {
        switch grain {
        case .day(let date): add(store: store, date: date)
        case .month(let first): add(store: store, dateNumber: first.year * 10_000 + first.month * 100)
        }
    }

    @discardableResult
    private mutating func add(store: String, dateNumber: Int) -> Int {
        let slot = stores.slot(of: store)
        if slot == spansBySlot.count { spansBySlot.append(Span()) }
        if dateNumber <= spansBySlot[slot].last { datesAscendPerStore = false }
        records += 1
        Self.extend(&spansBySlot[slot], with: dateNumber)
        return slot
    }

    private static func extend(_ span: inout Span, with dateNumber: Int) {
        span.records += 1
        span.first = min(span.first, dateNumber)
        span.last = max(span.last, dateNumber)
    }

    /// The date key text a number stands for (`YYYY-MM-DD`, or `YYYY-MM` for a month), as the
    /// tables hold dates and months (`CivilDate.iso8601`, `ReportGrain.key`). Without
    /// `String(format:)`, whose arguments are cast at run time, a visible share of a nightly
    /// ingest (docs/decisions.md#measured-reasons-behind-the-code).
    static func dateKey(_ number: Int) -> String {
        let (year, month, day) = (number / 10_000, number / 100 % 100, number % 100)
        let date = CivilDate(year: year, month: month, day: day)
        return day == 0 ? date.iso8601Month : date.iso8601
    }
}

/// The ledger's per-store counts of a run (`ingest_run_store`).
enum RunStoreCounts {
    /// Splits each store's records into inserted, updated and unchanged rows and writes them,
    /// inside the file's transaction, so that they add up to the file's counts. A store's keys
    /// the run inserted are its rows that carry the run and have no history entry of it; its
    /// changed and re-sent keys are `split`'s; the rest of its records repeat a key of the
    /// file, and the file's updates left over after every store's changed keys are given to
    /// them store by store (exact for a file of one store).
    static func write(
        _ tally: RunStoreTally, of run: Int64, in table: HistoryTable, fileCounts: UpsertCounts,
        split: RunHistorySplit, _ session: some SQLSession
    ) throws {
        let spans = tally.spans
        guard let period = table.period, !spans.isEmpty else { return }
        var keysWritten: [String: Int] = [:]
        if fileCounts.updated == 0 && fileCounts.unchanged == 0 {
            keysWritten = spans.mapValues(\.records)
        } else if fileCounts.inserted == 0 {
            keysWritten = split.byStore.mapValues(\.total)
        } else {
            let first = spans.values.map(\.first).min() ?? 0
            let last = spans.values.map(\.last).max() ?? 0
            try session.scan(
                """
                SELECT store_code, count(*) FROM \(table.name)
                WHERE \(period.dateColumn) BETWEEN ? AND ? AND \(HistoryTable.runColumn) = ? GROUP BY store_code
                """,
                [.text(RunStoreTally.dateKey(first)), .text(RunStoreTally.dateKey(last)), .integer(run)]
            ) { row in keysWritten[row.text(0)] = Int(row.int64(1)) }
        }
        var repeatedUpdates = max(0, fileCounts.updated - split.all.changed)
        for (store, span) in spans.sorted(by: { $0.key < $1.key }) {
            let keys = split.byStore[store] ?? RunHistorySplit.Keys()
            let written = min(keysWritten[store] ?? 0, span.records)
            let inserted = max(0, written - keys.total)
            let repeats = max(0, span.records - inserted - keys.total)
            let updatedRepeats = min(repeats, repeatedUpdates)
            repeatedUpdates -= updatedRepeats
            try session.execute(
                """
                INSERT INTO ingest_run_store (run_id, store_code, inserted, updated, unchanged, first_date, last_date)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(run), .text(store), SQLValue(inserted), SQLValue(keys.changed + updatedRepeats),
                    SQLValue(keys.resent + repeats - updatedRepeats),
                    .text(RunStoreTally.dateKey(span.first)), .text(RunStoreTally.dateKey(span.last)),
                ])
        }
    }
}
