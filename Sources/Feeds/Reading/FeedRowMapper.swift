import CivilCalendar
import SheetStream

/// Maps one feed file's rows to records, counted skips and rejects (SPEC sections 3 and 4),
/// with the file's counters, aggregators and result: the per-file state of `FeedFileReader.read`.
struct FeedRowMapper {
    let reader: FeedFileReader
    let header: HeaderMap
    let source: RowSource
    let isCSV: Bool
    let dateSystem: ExcelDateSystem
    /// How the feed's rows become records, looked at once a row.
    let rows: FeedRows
    var result: FeedReadResult
    var daily = DailyCounter()
    var weekly: WeeklyCounter
    /// Per associate, the name on the row with the latest date (later rows win ties).
    var employeeNames: [String: (asOf: CivilDate, name: String, row: Int)] = [:]
    /// Per vendor key, the name on the row with the latest date (later rows win ties).
    var vendorNames: [String: (asOf: String, name: String, row: Int)] = [:]
    let cache: NormalizationCache
    var progress: ((Int) -> Void)?

    init(
        reader: FeedFileReader, header: HeaderMap, file: String, sheet: String, isCSV: Bool, dateSystem: ExcelDateSystem
    ) {
        self.reader = reader
        self.header = header
        source = RowSource(header: header, file: file, sheet: sheet)
        self.isCSV = isCSV
        self.dateSystem = dateSystem
        rows = reader.definition.rows
        result = FeedReadResult(feed: reader.definition.id, sheet: sheet, headerRow: header.row)
        weekly = WeeklyCounter(weekStart: reader.options.weekStart)
        cache = NormalizationCache(
            directory: reader.directory, dateText: reader.options.dateText, dateSystem: dateSystem)
    }

    mutating func map(_ row: Row, emit: (FeedRecord, _ row: Int) throws -> Void) throws {
        result.read += 1
        if result.read % FeedFileReader.progressInterval == 0 { progress?(result.read) }
        if row.isBlank || TotalRow.isTotal(row, storeColumn: header[.store] ?? header[.code])
            || header.isRepeat(of: row)
        {
            result.skipped += 1
            return
        }
        try withUnsafePointer(to: row) { lent in
            var fields = RowFields(lending: lent, source: source)
            if isCSV && row.width != header.width {
                fields.failRow("has \(row.width) fields, but the header row has \(header.width)")
            } else if let record = mapFields(&fields) {
                try emit(record, row.number)
            }
            if let reject = fields.reject {
                result.rejected += 1
                if result.rejects.count < FeedFileReader.keptRejects { result.rejects.append(reject) }
            }
        }
    }

    /// Emits what the file aggregated (event counts, associates' latest names), each with the
    /// first source row that counted in it.
    mutating func finish(emit: (FeedRecord, _ row: Int) throws -> Void) throws {
        switch rows {
        case .dailyEvents: for (record, row) in daily.records { try emit(.dailyCount(record), row) }
        case .weeklyEvents: for (record, row) in weekly.records { try emit(.weeklyCount(record), row) }
        case .associateSales:
            for (id, latest) in employeeNames.sorted(by: { $0.key < $1.key }) {
                try emit(
                    .employeeName(EmployeeNameRecord(employeeId: id, name: latest.name, asOf: latest.asOf)), latest.row)
            }
        case .merchSales:
            for (key, latest) in vendorNames.sorted(by: { $0.key < $1.key }) {
                try emit(
                    .vendorName(VendorNameRecord(vendorKey: key, name: latest.name, asOf: latest.asOf)), latest.row)
            }
        case .salesAudit, .storeDirectory, .goals: break
        }
    }

    /// The record of a row for a row-per-key feed; event feeds aggregate and return `nil`.
    /// Inlined into `map`, with `salesAuditRecord`: a record returned through two calls was
    /// copied (`memcpy`) at each (docs/decisions.md#measured-reasons-behind-the-code).
    @inline(__always) private mutating func mapFields(_ fields: inout RowFields) -> FeedRecord? {
        switch rows {
        case .salesAudit: return salesAuditRecord(&fields)
        case .associateSales: return employeeSalesRecord(&fields)
        case .merchSales: return merchSalesRecord(&fields)
        case .dailyEvents:
            countDailyEvent(&fields)
            return nil
        case .weeklyEvents:
            countWeeklyEvent(&fields)
            return nil
        case .storeDirectory: return storeRecord(&fields)
        case .goals: return goalRecord(&fields)
        }
    }

    /// Sales, transactions, items and the optional CCP and GP percents of a sales row; a file
    /// without a transactions or items column leaves them unknown (SPEC section 26).
    static func salesFigures(_ fields: inout RowFields) -> SalesFigures? {
        guard let sales = fields.required(.totalSales, ValueNormalizer.money),
            let transactions = fields.requiredWhenPresent(.totalTransactions, ValueNormalizer.count),
            let items = fields.requiredWhenPresent(.totalItems, ValueNormalizer.count),
            let ccp = fields.optional(.ccpPct, ValueNormalizer.percent),
            let gp = fields.optional(.gpPct, ValueNormalizer.percent)
        else { return nil }
        return SalesFigures(
            totalSalesCents: sales, totalTransactions: transactions, totalItems: items, ccpPctMillionths: ccp,
            gpPctMillionths: gp)
    }

    /// A row's day (its date column) or, without a date, its month (the period column).
    func grain(_ fields: inout RowFields) -> ReportGrain? {
        if fields.isPresent(.date) || !fields.has(.period) {
            let cache = self.cache
            return fields.required(.date, { cache.date($0) }).map(ReportGrain.day)
        }
        let (parser, system) = (reader.options.dateText, dateSystem)
        return fields.required(.period, { ValueNormalizer.month($0, parser: parser, dateSystem: system) }).map(
            ReportGrain.month)
    }

    mutating func checkGiven(_ name: String, _ given: Double?, _ recomputed: Double?, row: Int) {
        guard let given, let recomputed, recomputed != 0, abs(given - recomputed) / abs(recomputed) > 0.01 else {
            return
        }
        if result.warnings.count < 20 {
            result.warnings.append(
                "\(source.file)!\(source.sheet) row \(row): given \(name) \(CellText.number(given)) is more than 1% off the recomputed \(CellText.number((recomputed * 10_000).rounded() / 10_000)); the recomputed value is stored"
            )
        }
    }

}

/// Remembers the normalisation of repeated text cells: a store-day export names the same ~40
/// stores and the same dates over and over, and parsing them once each is most of the win.
///
/// The mapper hands its methods to a row's fields as closure literals (`{ cache.store($0) }`),
/// which borrow the mapper's reference: a closure returned by a computed property, a new one
/// each time, captured the cache, a retain and a release per field read
/// (docs/decisions.md#measured-reasons-behind-the-code).
final class NormalizationCache {
    private let directory: StoreDirectory
    private let dateText: DateText
    private let dateSystem: ExcelDateSystem
    /// The caches sit behind a pointer rather than in stored properties: mutating a class's
    /// stored property through a call costs a dynamic exclusivity check per access
    /// (docs/decisions.md#measured-reasons-behind-the-code). A mapper, and so its cache, is used
    /// by one thread at a time.
    private let caches = UnsafeMutablePointer<Caches>.allocate(capacity: 1)

    private struct Caches {
        var stores = RecurringTextCache<Result<String, NormalizationFailure>>(limit: NormalizationCache.limit)
        var dates = RecurringTextCache<Result<CivilDate, NormalizationFailure>>(limit: NormalizationCache.limit)
        /// The last date-formatted cell that made a date, and the date: a sheet's rows come day
        /// by day, so most rows repeat the date of the row before. Plain values, so that looking
        /// at it copies no `Result` (whose failure holds text).
        var lastDateTime: (cell: CellDateTime, date: CivilDate)?
    }

    private static let limit = 4096

    init(directory: StoreDirectory, dateText: DateText, dateSystem: ExcelDateSystem) {
        self.directory = directory
        self.dateText = dateText
        self.dateSystem = dateSystem
        caches.initialize(to: Caches())
    }

    deinit {
        caches.deinitialize(count: 1)
        caches.deallocate()
    }

    func store(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard case .string(let text) = cell else { return directory.resolve(cell) }
        return caches.pointee.stores.value(of: text) { directory.resolve(cell) }
    }

    func date(_ cell: Cell) -> Result<CivilDate, NormalizationFailure> {
        switch cell {
        case .string(let text):
            return caches.pointee.dates.value(of: text) {
                ValueNormalizer.date(cell, parser: dateText, dateSystem: dateSystem)
            }
        case .date(let value):
            if let last = caches.pointee.lastDateTime, last.cell == value { return .success(last.date) }
            let date = ValueNormalizer.date(cell, parser: dateText, dateSystem: dateSystem)
            if case .success(let day) = date { caches.pointee.lastDateTime = (value, day) }
            return date
        default:
            return ValueNormalizer.date(cell, parser: dateText, dateSystem: dateSystem)
        }
    }
}
