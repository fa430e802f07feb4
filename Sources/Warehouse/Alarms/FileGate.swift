import Checks
import CivilCalendar
import Feeds
import Threads

/// The ingest gate of one file (SPEC section 18): the checks on the store-days the file writes,
/// in its transaction, once it is written.
///
/// A sales-audit file whose rows come date by date, into a warehouse that holds nothing the
/// checks read on or after the file's first day, is checked as it is written: `StreamingScan`
/// takes the history before the file from the tables (the days a one-pass check of the file's
/// days reads), then the rows, so nothing is read back and the memory stays at a year of days
/// per store. The scan starts once the file spans the days that make that history one whole
/// year (its first rows are kept until then; a shorter file's history, read with the windows of
/// a check of its days, goes to the scan at the end), and runs on a thread of its own, a batch
/// of rows at a time, while the file is read and written (`endOfFile` lets it finish while the
/// writing does). That thread yields the cores to the reading and writing: while it is busy
/// with a batch, the next gathers on up to `lagRows` rows before the writing waits for it, and
/// the scan catches up when they leave a core free (the file's last writes, a wait for the disk). Any other file, or one
/// whose dates go back, is checked on its store-days read back from the tables
/// (`Warehouse.alarms(_:touched:settings:)`).
struct FileGate {
    private let settings: CheckSettings
    private var mode: Mode
    /// The store-days a file checked by reading back wrote.
    private var touched = TouchedStoreDays()
    /// The rows not yet given to the scan: all of them before it starts, then the next batch.
    private var rows: [BufferedRow] = []
    private var scan: ScanThread?
    /// Rows handed to the scan at a time.
    private let batchRows: Int
    /// The most rows gathered while the scan is busy with the batch before; past that the
    /// writing waits for it.
    private let lagRows: Int
    /// The count of gathered rows at which they are next offered to the scan.
    private var handOverAt: Int
    /// The last record's date and its day number.
    private var lastDate = (date: CivilDate(year: 0, month: 0, day: 0), day: 0)
    /// The last day a buffered row came on, and whether the history before the file's days up
    /// to it is one window of days (then the scan starts).
    private var wholeHistory = (day: Int.min, isWhole: false)

    private enum Mode {
        /// A sales-audit file before its first row.
        case waiting
        /// A sales-audit file's first rows, kept from day `first` (days since the epoch).
        case buffering(first: Int)
        /// Rows go to `scan` a batch at a time.
        case scanning
        /// Store-days noted in `touched`, read back at the end.
        case readingBack
        /// The file read, the scan finishing (its store-days noted in `touched`).
        case finished
    }

    /// Days before a store-day that an event week holding it may start: event rows from then on
    /// would be judged with the file's days.
    private static let eventWeekReach = 6

    /// The gate of a file of `feed`, whose rows go to the scan `batchRows` at a time (about
    /// 0.7 MB) and gather up to `lagRows` (1.4 MB) while it is busy: with the batch it holds,
    /// at most twice that.
    init(feed: FeedID, settings: CheckSettings, batchRows: Int = 8_192, lagRows: Int = 16_384) {
        self.settings = settings
        self.batchRows = batchRows
        self.lagRows = lagRows
        handOverAt = batchRows
        mode = feed == .salesAudit ? .waiting : .readingBack
    }

    /// Whether the file's store-days are to be read back at the end (else it is checked as it
    /// is written).
    var readsBack: Bool {
        if case .readingBack = mode { return true }
        return false
    }

    /// Notes a record the file writes as run `run`, before it is written. Borrowed: two copies a
    /// row (`memcpy`) become one; its sales row is then passed on plainly, since reading a
    /// borrowed row's fields copied the whole row.
    mutating func add(_ record: borrowing FeedRecord, run: Int64, _ session: some SQLSession) throws {
        switch record {
        case .salesAudit(let sales):
            // A weekly export's weeks are not days: the checks leave them alone.
            guard !sales.isWeek else { return }
            // Rows come date by date: a date's day number is worked out once.
            if sales.date != lastDate.date { lastDate = (sales.date, sales.date.daysSinceEpoch) }
            let day = lastDate.day
            guard try !buffer(sales, day: day, run: run, session) else { return }
            readBack()
            touched.add(sales.store, day...day)
        default:
            readBack()
            touched.add(record)
        }
    }

    /// Buffers a sales row of `day` for the scan; `false`, buffering nothing, when the file is
    /// read back instead: from the start (the warehouse holds rows the checks read on or after
    /// its first day), from this row on (its date goes back), or after the end of the file.
    private mutating func buffer(_ sales: SalesAuditRecord, day: Int, run: Int64, _ session: some SQLSession)
        throws -> Bool
    {
        switch mode {
        case .readingBack, .finished:
            return false
        case .waiting:
            guard try Self.holdsNothingChecked(from: day, session) else { return false }
            mode = .buffering(first: day)
            rows.append(BufferedRow(sales, day: day, run: run))
        case .buffering(let first):
            guard day >= rows.last?.day ?? day else { return false }
            rows.append(BufferedRow(sales, day: day, run: run))
            // Whether the history is one window depends on the day alone: worked out once a
            // day (an array each time), not once a row.
            if day != wholeHistory.day {
                wholeHistory = (day, AlarmSeriesLoader.windows(chunk: first...day, lastDay: day).count == 1)
            }
            if wholeHistory.isWhole { try startScan(session, first: first, last: day) }
        case .scanning:
            guard day >= rows.last?.day ?? scan?.lastDay ?? day else { return false }
            rows.append(BufferedRow(sales, day: day, run: run))
            if rows.count >= handOverAt { handOver() }
        }
        return true
    }

    /// The alarms on the file's store-days, each naming its file.
    mutating func alarms(_ session: some SQLSession, in warehouse: Warehouse) throws -> [Alarm] {
        switch mode {
        case .waiting:
            return []
        case .readingBack:
            guard !touched.isEmpty else { return [] }
            return try warehouse.alarms(session, touched: touched.days, settings: settings)
        case .buffering, .scanning, .finished:
            try endOfFile(session)
        }
        var alarms = scan?.alarms() ?? []
        scan = nil
        try Warehouse.nameFiles(&alarms, session)
        return alarms
    }

    /// Says the file has been read: a scan gets its last rows, finishes on its thread (its last
    /// day, the runs of equal days) and builds its alarms there while the file's writing
    /// finishes; `alarms` then takes them.
    mutating func endOfFile(_ session: some SQLSession) throws {
        if case .buffering(let first) = mode { try startScan(session, first: first, last: rows.last?.day ?? first) }
        guard case .scanning = mode else { return }
        scan?.add(&rows)
        rows = []
        // Kept should a row come after all, to be read back.
        for (store, days) in scan?.judgedDays() ?? [:] { touched.add(store, days) }
        scan?.finish()
        mode = .finished
    }

    /// Hands the rows gathered to the scan; while it is busy with the batch before, they gather
    /// on (offered again every eighth of a batch) up to `lagRows`, where the writing waits.
    private mutating func handOver() {
        if rows.count < lagRows, scan?.isBusy == true {
            handOverAt = min(rows.count + max(batchRows / 8, 1), lagRows)
        } else {
            scan?.add(&rows)
            handOverAt = batchRows
        }
    }

    /// Starts the scan of a file whose days run from `first` to `last` so far: the history a
    /// check of those days reads, then the rows kept.
    private mutating func startScan(_ session: some SQLSession, first: Int, last: Int) throws {
        var scan = StreamingScan(
            settings: settings, firstDay: first - AlarmSeriesLoader.yearAgoStart, judgedFrom: first)
        for window in AlarmSeriesLoader.windows(chunk: first...last, lastDay: last) where window.lowerBound < first {
            let days = [window.lowerBound, min(window.upperBound, first - 1)]
            // In date order, as the scan takes rows.
            try session.scan(
                AlarmSeriesLoader.salesQuery + " ORDER BY date",
                days.map { .text(CivilDate(daysSinceEpoch: $0).iso8601) }
            ) { row in
                guard let day = row.dayNumber(0) else { return }
                _ = scan.add(store: row.text(1), day: day, AlarmSeriesLoader.salesDay(row))
            }
        }
        self.scan = ScanThread(scan)
        mode = .scanning
        self.scan?.add(&rows)
    }

    /// Goes over to reading back, unless it has: the store-days buffered or scanned so far are
    /// noted, to be read back with the ones after.
    private mutating func readBack() {
        if case .readingBack = mode { return }
        for kept in rows { touched.add(kept.store, kept.day...kept.day) }
        // A finished scan's store-days are noted already (and the scan is no longer to be asked).
        if case .scanning = mode {
            for (store, days) in scan?.judgedDays() ?? [:] { touched.add(store, days) }
        }
        rows = []
        scan = nil
        mode = .readingBack
    }

    /// Whether the warehouse holds no row the checks read on or after `day` (days since the
    /// epoch): sales-audit rows, associate day rows, and event rows of a week holding it.
    private static func holdsNothingChecked(from day: Int, _ session: some SQLSession) throws -> Bool {
        for table in FeedTables.all where FeedCatalog.definition(table.feed).rows != .merchSales {
            let isEvent = FeedCatalog.definition(table.feed).rows.countsEvents
            let from = CivilDate(daysSinceEpoch: isEvent ? day - eventWeekReach : day)
            let grain = table.period == .dayOrMonth ? " AND grain = 'day'" : ""
            let sql = "SELECT 1 FROM \(table.name) WHERE \(table.period.dateColumn) >= ?\(grain) LIMIT 1"
            if try session.integer(sql, [.text(from.iso8601)]) != nil { return false }
        }
        return true
    }
}

/// A sales-audit row on its way to the scan.
private struct BufferedRow {
    let store: String
    let day: Int
    let row: SalesDay

    /// A sales row of `day` (days since the epoch) written as run `run`.
    init(_ sales: SalesAuditRecord, day: Int, run: Int64) {
        store = sales.store
        self.day = day
        let figures = sales.figures
        row = SalesDay(
            cents: figures.totalSalesCents, transactions: figures.totalTransactions.map(Int64.init),
            items: figures.totalItems.map(Int64.init), ccpMillionths: figures.ccpPctMillionths,
            gpMillionths: figures.gpPctMillionths, run: run, closed: sales.isOpen == false)
    }
}

/// A `StreamingScan` fed batches of rows on a thread of its own, one batch after the other
/// (on the caller's thread when no thread can be started): the checks run while the file is
/// read and written, on a thread that yields the cores to the reading and writing.
private final class ScanThread {
    private var scan: StreamingScan
    private let worker: WorkerThread?
    /// The batch being scanned, and the array of the batch before, emptied: two arrays take
    /// turns, rather than one for every batch. The caller touches them only once the worker is
    /// idle.
    private var pending: [BufferedRow] = []
    private var spare: [BufferedRow] = []
    /// The day of the last row handed over.
    private(set) var lastDay: Int?
    /// The alarms `finish` built, for `alarms` to take.
    private var built: [Alarm] = []

    init(_ scan: StreamingScan) {
        self.scan = scan
        worker = try? WorkerThread(priority: .background)
    }

    /// Waits for the job running, which uses this scan (the jobs do not keep it alive, so that
    /// it always ends on the caller's thread).
    deinit { worker?.wait() }

    /// Whether the scan is busy with a batch: `add` would wait.
    var isBusy: Bool { worker?.isBusy ?? false }

    /// Hands `rows` (in date order, after the rows before) to the scan once it is through the
    /// batch before, and leaves in `rows` an empty array to fill.
    func add(_ rows: inout [BufferedRow]) {
        guard !rows.isEmpty else { return }
        worker?.wait()
        lastDay = rows.last?.day
        pending = rows
        rows = spare
        spare = []
        run { [unowned(unsafe) self] in
            Self.add(pending, to: &scan)
            pending.removeAll(keepingCapacity: true)
            swap(&pending, &spare)
        }
    }

    /// Gives `rows` to `scan` in order: the scan, a property of this class, is accessed once for
    /// the batch rather than once (with its exclusivity check) per row, and each row is read in
    /// place rather than copied out.
    private static func add(_ rows: [BufferedRow], to scan: inout StreamingScan) {
        rows.withUnsafeBufferPointer { rows in
            for index in rows.indices { _ = scan.add(store: rows[index].store, day: rows[index].day, rows[index].row) }
        }
    }

    /// Finishes the scan on its thread once it is through every batch (its last day, its runs of
    /// equal days) and builds its alarms there, while the file's writing finishes (its rollups,
    /// its commit): they were the writing thread's last work before
    /// (docs/decisions.md#the-gates-scan-yields-and-may-lag).
    func finish() {
        worker?.wait()
        spare = []
        run { [unowned(unsafe) self] in
            scan.finish()
            built = scan.alarms()
        }
    }

    /// Every alarm of the scan, in report order, once it is finished (`finish`); handed over
    /// once: a second call has none.
    func alarms() -> [Alarm] {
        worker?.wait()
        defer { built = [] }
        return built
    }

    /// Per store, its first and last judged day so far, once the scan is through every batch.
    func judgedDays() -> [String: ClosedRange<Int>] {
        worker?.wait()
        return scan.judgedDays
    }

    /// Runs `job` on the worker, or here when there is none.
    private func run(_ job: @escaping () -> Void) {
        guard let worker else { return job() }
        worker.start(job)
    }
}
