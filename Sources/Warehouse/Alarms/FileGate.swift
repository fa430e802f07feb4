import Checks
import CivilCalendar
import Feeds

/// The ingest gate of one file (SPEC section 18): the checks on the store-days the file writes,
/// in its transaction, once it is written.
///
/// A sales-audit file whose rows come date by date, into a warehouse that holds nothing the
/// checks read on or after the file's first day, is checked as it is written: `StreamingScan`
/// takes the history before the file from the tables (the days a one-pass check of the file's
/// days reads), then each row, so nothing is read back and the memory stays at a year of days
/// per store. The scan starts once the file spans the days that make that history one whole
/// year (its first rows are kept until then); a shorter file's history, read with the windows
/// of a check of its days, goes to the scan at the end. Any other file, or one whose dates go
/// back, is checked on its store-days read back from the tables (`Warehouse.alarms(_:touched:settings:)`).
struct FileGate {
    private let settings: CheckSettings
    private var mode: Mode
    /// The store-days a file checked by reading back wrote.
    private var touched = TouchedStoreDays()
    /// The rows kept before the scan starts (`buffering`).
    private var buffer: [BufferedRow] = []
    private var scan: StreamingScan?

    private enum Mode {
        /// A sales-audit file before its first row.
        case waiting
        /// A sales-audit file's first rows, kept from day `first` (days since the epoch).
        case buffering(first: Int)
        /// Rows go to `scan` as they come.
        case scanning
        /// Store-days noted in `touched`, read back at the end.
        case readingBack
    }

    /// A sales-audit row kept until the scan starts.
    private struct BufferedRow {
        let store: String
        let day: Int
        let row: SalesDay
    }

    /// Days before a store-day that an event week holding it may start: event rows from then on
    /// would be judged with the file's days.
    private static let eventWeekReach = 6

    /// The gate of a file of `feed`.
    init(feed: FeedID, settings: CheckSettings) {
        self.settings = settings
        mode = feed == .salesAudit ? .waiting : .readingBack
    }

    /// Whether the file's store-days are to be read back at the end (else it is checked as it
    /// is written).
    var readsBack: Bool {
        if case .readingBack = mode { return true }
        return false
    }

    /// Notes a record the file writes as run `run`, before it is written.
    mutating func add(_ record: FeedRecord, run: Int64, _ session: some SQLSession) throws {
        guard case .salesAudit(let sales) = record else { return readBack(adding: record) }
        let day = sales.date.daysSinceEpoch
        let row = SalesDay(
            cents: sales.figures.totalSalesCents, transactions: Int64(sales.figures.totalTransactions),
            items: Int64(sales.figures.totalItems), ccpMillionths: sales.figures.ccpPctMillionths,
            gpMillionths: sales.figures.gpPctMillionths, run: run)
        switch mode {
        case .readingBack:
            touched.add(record)
        case .waiting:
            guard try Self.holdsNothingChecked(from: day, session) else { return readBack(adding: record) }
            mode = .buffering(first: day)
            buffer.append(BufferedRow(store: sales.store, day: day, row: row))
        case .buffering(let first):
            guard day >= buffer.last?.day ?? day else { return readBack(adding: record) }
            buffer.append(BufferedRow(store: sales.store, day: day, row: row))
            if AlarmSeriesLoader.windows(chunk: first...day, lastDay: day).count == 1 {
                try startScan(session, first: first, last: day)
            }
        case .scanning:
            guard scan?.add(store: sales.store, day: day, row) == true else { return readBack(adding: record) }
        }
    }

    /// The alarms on the file's store-days, each naming its file.
    mutating func alarms(_ session: some SQLSession, in warehouse: Warehouse) throws -> [Alarm] {
        switch mode {
        case .waiting:
            return []
        case .readingBack:
            guard !touched.isEmpty else { return [] }
            return try warehouse.alarms(session, touched: touched.days, settings: settings)
        case .buffering(let first):
            try startScan(session, first: first, last: buffer.last?.day ?? first)
        case .scanning:
            break
        }
        var alarms = scan?.finish() ?? []
        scan = nil
        try Warehouse.nameFiles(&alarms, session)
        return alarms
    }

    /// Starts the scan of a file whose days run from `first` to `last` so far: the history a
    /// check of those days reads, then the rows kept.
    private mutating func startScan(_ session: some SQLSession, first: Int, last: Int) throws {
        var scan = StreamingScan(
            settings: settings, firstDay: first - AlarmSeriesLoader.yearAgoStart, judgedFrom: first)
        for window in AlarmSeriesLoader.windows(chunk: first...last, lastDay: last) where window.lowerBound < first {
            let days = [window.lowerBound, min(window.upperBound, first - 1)]
            try session.scan(AlarmSeriesLoader.salesQuery, days.map { .text(CivilDate(daysSinceEpoch: $0).iso8601) }) {
                row in
                guard let day = row.dayNumber(0) else { return }
                _ = scan.add(store: row.text(1), day: day, AlarmSeriesLoader.salesDay(row))
            }
        }
        for kept in buffer { _ = scan.add(store: kept.store, day: kept.day, kept.row) }
        buffer = []
        self.scan = scan
        mode = .scanning
    }

    /// Goes over to reading back: the store-days so far, and `record`'s.
    private mutating func readBack(adding record: FeedRecord) {
        switch mode {
        case .buffering: for kept in buffer { touched.add(kept.store, kept.day...kept.day) }
        case .scanning: for (store, days) in scan?.judgedDays ?? [:] { touched.add(store, days) }
        case .waiting, .readingBack: break
        }
        buffer = []
        scan = nil
        mode = .readingBack
        touched.add(record)
    }

    /// Whether the warehouse holds no row the checks read on or after `day` (days since the
    /// epoch): sales-audit rows, associate day rows, and event rows of a week holding it.
    private static func holdsNothingChecked(from day: Int, _ session: some SQLSession) throws -> Bool {
        for table in FeedTables.all where table.feed != .merchSales {
            let isEvent = table.feed != .salesAudit && table.feed != .employeePerformance
            let from = CivilDate(daysSinceEpoch: isEvent ? day - eventWeekReach : day)
            let grain = table.period == .dayOrMonth ? " AND grain = 'day'" : ""
            let sql = "SELECT 1 FROM \(table.name) WHERE \(table.period.dateColumn) >= ?\(grain) LIMIT 1"
            if try session.integer(sql, [.text(from.iso8601)]) != nil { return false }
        }
        return true
    }
}
