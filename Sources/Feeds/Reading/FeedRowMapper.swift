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
        result = FeedReadResult(feed: reader.definition.id, sheet: sheet, headerRow: header.row)
        weekly = WeeklyCounter(weekStart: reader.options.weekStart)
        cache = NormalizationCache(
            directory: reader.directory, dateText: reader.options.dateText, dateSystem: dateSystem)
    }

    private var definition: FeedDefinition { reader.definition }

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
        switch definition.id {
        case .creditApps: for (record, row) in daily.records { try emit(.creditApplications(record), row) }
        case .crmIntakes: for (record, row) in daily.records { try emit(.crmIntakes(record), row) }
        case .birdeyeReviews: for (record, row) in weekly.records { try emit(.birdeyeReviews(record), row) }
        case .outboundCalls: for (record, row) in weekly.records { try emit(.outboundCalls(record), row) }
        case .employeePerformance:
            for (id, latest) in employeeNames.sorted(by: { $0.key < $1.key }) {
                try emit(
                    .employeeName(EmployeeNameRecord(employeeId: id, name: latest.name, asOf: latest.asOf)), latest.row)
            }
        case .merchSales:
            for (key, latest) in vendorNames.sorted(by: { $0.key < $1.key }) {
                try emit(
                    .vendorName(VendorNameRecord(vendorKey: key, name: latest.name, asOf: latest.asOf)), latest.row)
            }
        case .salesAudit, .stores, .goals: break
        }
    }

    /// The record of a row for a row-per-key feed; event feeds aggregate and return `nil`.
    /// Inlined into `map`, with `salesAuditRecord`: a record returned through two calls was
    /// copied (`memcpy`) at each, 5 copies a sales row where 2 are left (callgrind).
    @inline(__always) private mutating func mapFields(_ fields: inout RowFields) -> FeedRecord? {
        switch definition.id {
        case .salesAudit: return salesAuditRecord(&fields)
        case .employeePerformance: return employeeSalesRecord(&fields)
        case .merchSales: return merchSalesRecord(&fields)
        case .creditApps, .crmIntakes:
            countDailyEvent(&fields)
            return nil
        case .birdeyeReviews, .outboundCalls:
            countWeeklyEvent(&fields)
            return nil
        case .stores: return storeRecord(&fields)
        case .goals: return goalRecord(&fields)
        }
    }

    /// A store-day of the sales audit, warning when a given UPT or ADS is more than 1 % off.
    @inline(__always) private mutating func salesAuditRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.store, { cache.store($0) }),
            let day = fields.required(.date, { cache.date($0) }), let figures = Self.salesFigures(&fields),
            let givenUPT = fields.optional(.upt, ValueNormalizer.number),
            let givenADS = fields.optional(.ads, ValueNormalizer.number)
        else { return nil }
        checkGiven("UPT", givenUPT, figures.upt, row: fields.rowNumber)
        checkGiven("ADS", givenADS, figures.ads, row: fields.rowNumber)
        return .salesAudit(SalesAuditRecord(store: code, date: day, figures: figures))
    }

    /// An associate's day or month at a store; the latest name seen per associate is kept for `finish`.
    private mutating func employeeSalesRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let id = fields.required(.employeeId, ValueNormalizer.identifier),
            let code = fields.required(.store, { cache.store($0) }),
            let grain = self.grain(&fields), let figures = Self.salesFigures(&fields),
            let name = fields.optional(.employeeName, ValueNormalizer.key)
        else { return nil }
        if let name {
            // One dictionary access per row: the entry is read and replaced in place.
            let asOf = grain.lastDay
            Self.keepLatest(
                &employeeNames[id, default: (asOf, name, fields.rowNumber)], asOf: asOf, name: name,
                row: fields.rowNumber)
        }
        return .employeeSales(EmployeeSalesRecord(employeeId: id, store: code, grain: grain, figures: figures))
    }

    /// A vendor and/or category day or month at a store.
    private mutating func merchSalesRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.store, { cache.store($0) }), let grain = self.grain(&fields),
            let vendorName = fields.optional(.vendor, ValueNormalizer.key),
            let vendorId = fields.optional(.vendorId, ValueNormalizer.identifier),
            let category = fields.optional(.category, ValueNormalizer.key),
            let sales = fields.required(.totalSales, ValueNormalizer.money),
            let items = fields.required(.totalItems, ValueNormalizer.count)
        else { return nil }
        guard vendorName != nil || vendorId != nil || category != nil else {
            fields.failRow("has neither a vendor nor a category")
            return nil
        }
        let record = MerchSalesRecord(
            store: code, grain: grain, vendorKey: vendorId ?? vendorName ?? "",
            vendorName: vendorName ?? vendorId ?? "",
            category: category ?? "", totalSalesCents: sales, totalItems: items)
        if !record.vendorKey.isEmpty {
            let asOf: String
            switch grain {
            case .day(let date): asOf = date.iso8601
            case .month: asOf = grain.key + "-31"
            }
            // A later row wins a tie, as for associates.
            if (vendorNames[record.vendorKey]?.asOf ?? "") <= asOf {
                vendorNames[record.vendorKey] = (asOf, record.vendorName, fields.rowNumber)
            }
        }
        return .merchSales(record)
    }

    /// Counts an event row (a credit application, an intake) for its store-day.
    private mutating func countDailyEvent(_ fields: inout RowFields) {
        guard let code = fields.required(.store, { cache.store($0) }),
            let day = fields.required(.date, { cache.date($0) })
        else { return }
        daily.add(store: code, date: day, row: fields.rowNumber)
    }

    /// Counts a review or call row for its store-week: an event with a date, a weekly total, or
    /// a row of weekday counts.
    private mutating func countWeeklyEvent(_ fields: inout RowFields) {
        guard let code = fields.required(.store, { cache.store($0) }) else { return }
        if fields.isPresent(.date) || !fields.has(.weekStart) {
            guard let day = fields.required(.date, { cache.date($0) }) else { return }
            weekly.add(store: code, date: day, row: fields.rowNumber)
        } else if fields.has(.reviewCount) {
            guard let week = fields.required(.weekStart, { cache.date($0) }),
                let count = fields.required(.reviewCount, ValueNormalizer.count)
            else { return }
            weekly.add(store: code, weekOf: week, total: count, row: fields.rowNumber)
        } else if CanonicalField.weekdays.contains(where: fields.has) {
            guard let given = fields.required(.weekStart, { cache.date($0) }) else { return }
            // SPEC section 4: the week is normalised first, and each weekday column is that
            // weekday's date inside it, so a row's counts never move to another week.
            let week = given.weekStart(on: reader.options.weekStart)
            for day in CanonicalField.weekdays where fields.has(day) {
                guard let count = fields.optional(day, ValueNormalizer.count), let weekday = day.weekdayIndex else {
                    return
                }
                let columnDate = week.adding(days: (weekday - reader.options.weekStart + 7) % 7)
                if let count, count != 0 {
                    weekly.add(store: code, date: columnDate, count: count, row: fields.rowNumber)
                }
            }
        } else {
            // A week column but neither counts nor weekday columns: the row needs its date.
            _ = fields.required(.date, { cache.date($0) })
        }
    }

    /// A store of the directory, with its aliases.
    private func storeRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.code, Self.storeCode), let name = fields.optional(.name, Self.text),
            let region = fields.optional(.region, Self.text), let status = fields.optional(.status, Self.storeStatus),
            let aliases = fields.optional(.aliases, Self.text),
            let opened = fields.optional(.opened, { cache.date($0) }),
            let closed = fields.optional(.closed, { cache.date($0) })
        else { return nil }
        if let opened, let closed, closed < opened {
            fields.failRow("closed \(closed.iso8601) before it opened \(opened.iso8601)")
            return nil
        }
        let aliasList = (aliases ?? "").split(separator: ";").compactMap { TextNormalizer.clean(String($0)) }
        return .store(
            StoreRecord(
                code: code, name: name ?? "", region: region, status: status ?? "active", aliases: aliasList,
                opened: opened, closed: closed))
    }

    /// A month's (or a day's) target.
    private func goalRecord(_ fields: inout RowFields) -> FeedRecord? {
        let goalMonths = reader.options.goalMonths
        guard let (period, month) = fields.required(.period, { Self.period($0, in: goalMonths) }),
            let scope = fields.required(.scope, goalScope), let metric = fields.required(.metric, Self.metric),
            let target = fields.required(.target, ValueNormalizer.number),
            let day = fields.optional(.date, { cache.date($0) })
        else { return nil }
        if let day, !month.contains(day) {
            fields.failRow("has date \(day.iso8601) outside its period \(period)")
            return nil
        }
        return .goal(GoalRecord(period: period, scope: scope, metric: metric, target: target, date: day))
    }

    /// Replaces `entry` with the name as of `asOf` when that is no earlier (a later row wins ties).
    private static func keepLatest(
        _ entry: inout (asOf: CivilDate, name: String, row: Int), asOf: CivilDate, name: String, row: Int
    ) {
        if entry.asOf <= asOf { entry = (asOf, name, row) }
    }

    /// Sales, transactions, items and the optional CCP and GP percents of a sales row; a file
    /// without a transactions or items column leaves them unknown (SPEC section 26).
    private static func salesFigures(_ fields: inout RowFields) -> SalesFigures? {
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
    private func grain(_ fields: inout RowFields) -> ReportGrain? {
        if fields.isPresent(.date) || !fields.has(.period) {
            let cache = self.cache
            return fields.required(.date, { cache.date($0) }).map(ReportGrain.day)
        }
        let (parser, system) = (reader.options.dateText, dateSystem)
        return fields.required(.period, { ValueNormalizer.month($0, parser: parser, dateSystem: system) }).map(
            ReportGrain.month)
    }

    private mutating func checkGiven(_ name: String, _ given: Double?, _ recomputed: Double?, row: Int) {
        guard let given, let recomputed, recomputed != 0, abs(given - recomputed) / abs(recomputed) > 0.01 else {
            return
        }
        if result.warnings.count < 20 {
            result.warnings.append(
                "\(source.file)!\(source.sheet) row \(row): given \(name) \(CellText.number(given)) is more than 1% off the recomputed \(CellText.number((recomputed * 10_000).rounded() / 10_000)); the recomputed value is stored"
            )
        }
    }

    private func goalScope(_ cell: Cell) -> Result<String, NormalizationFailure> {
        if let text = TextNormalizer.text(of: cell), text.lowercased() == "global" { return .success("global") }
        return reader.directory.resolve(cell)
    }

    private static func text(_ cell: Cell) -> Result<String, NormalizationFailure> {
        TextNormalizer.text(of: cell).map { .success($0) } ?? .failure(.missing)
    }

    private static func storeCode(_ cell: Cell) -> Result<String, NormalizationFailure> {
        switch cell {
        case .number(let value) where value >= 0 && value == value.rounded() && value < 1e9:
            return .success(StoreDirectory.code(Int(value)))
        case .string:
            guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
            guard let code = StoreDirectory.leadingCode(text), text.allSatisfy({ $0.isNumber || $0 == "." }) else {
                return .failure(.invalid("is not a store code (expected digits, such as 08)"))
            }
            return .success(code)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a store code (expected digits, such as 08)"))
        }
    }

    /// A goal's period as `goalMonths` names months, with its days.
    private static func period(_ cell: Cell, in goalMonths: GoalMonths) -> Result<
        (String, DateRange), NormalizationFailure
    > {
        let text: String?
        if case .date(let value) = cell {
            text = value.civil.iso8601Month
        } else {
            text = TextNormalizer.text(of: cell)
        }
        guard let text else { return .failure(.missing) }
        guard let month = goalMonths.range(of: text) else {
            return .failure(.invalid("is not a goal period: expected \(goalMonths.expected)"))
        }
        return .success((text.uppercased(), month))
    }

    /// `active` or `closed`, in any case.
    private static func storeStatus(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
        let status = text.lowercased()
        guard StoreRecord.statuses.contains(status) else {
            return .failure(
                .invalid("is not a store status (expected \(StoreRecord.statuses.joined(separator: " or ")))"))
        }
        return .success(status)
    }

    private static func metric(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
        guard GoalRecord.metrics.contains(text) else {
            return .failure(
                .invalid("is not a metric (expected one of \(GoalRecord.metrics.sorted().joined(separator: ", ")))"))
        }
        return .success(text)
    }
}

/// Remembers the normalisation of repeated text cells: a store-day export names the same ~40
/// stores and the same dates over and over, and parsing them once each is most of the win.
///
/// The mapper hands its methods to a row's fields as closure literals (`{ cache.store($0) }`),
/// which borrow the mapper's reference: a closure returned by a computed property, a new one
/// each time, captured the cache, a retain and a release per field read (callgrind: 13 M
/// instructions of the writing thread per 100,000 sales rows).
final class NormalizationCache {
    private let directory: StoreDirectory
    private let dateText: DateText
    private let dateSystem: ExcelDateSystem
    /// The caches sit behind a pointer rather than in stored properties: mutating a class's
    /// stored property through a call costs a dynamic exclusivity check per access (about 130
    /// instructions a row, measured). A mapper, and so its cache, is used by one thread at a time.
    private let caches = UnsafeMutablePointer<Caches>.allocate(capacity: 1)

    private struct Caches {
        var stores = RecurringTextCache<Result<String, NormalizationFailure>>(limit: NormalizationCache.limit)
        var dates = RecurringTextCache<Result<CivilDate, NormalizationFailure>>(limit: NormalizationCache.limit)
        /// The last date-formatted cell that made a date, and the date: a sheet's rows come day
        /// by day, so most rows repeat the date of the row before. Plain values, so that looking
        /// at it copies no `Result` (whose failure holds text): 22 instructions a row fewer.
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
