import CivilCalendar
import Feeds
import Foundation

/// A store-month whose rollup differs from a full recomputation.
public struct RollupDifference: Sendable, Equatable, CustomStringConvertible {
    public var key: StoreMonth
    /// The rollup row (`nil`: missing).
    public var stored: MeasureSums?
    /// The recomputed measures (`nil`: the rollup row should not exist).
    public var recomputed: MeasureSums?

    public var description: String {
        let what =
            stored == nil ? "missing" : recomputed == nil ? "has no data behind it" : "differs from a recomputation"
        return "rollup \(key.store) \(key.month) \(what)"
    }
}

/// Store-month rollups of every additive measure (SPEC section 13, the `KPIRecord` cache):
/// `store_month_rollup` holds, per store and month, exactly what `scanMeasures` sums from the
/// feed tables for that month. Ingests refresh the store-months their file touched, inside the
/// file's transaction; `rebuildRollups` and `checkRollups` recompute them all.
///
/// Money and counts are 64-bit integers; the two weighted sums (percent millionths × items or
/// cents) can pass 64 bits and are stored as decimal text of their 128-bit values.
extension Warehouse {
    /// Whether reports read whole months from the rollups (on unless the environment variable
    /// `DDKPI_BYPASS_ROLLUPS` is `1`: a switch for tests that compare reports both ways).
    static var rollupsEnabledByEnvironment: Bool { ProcessInfo.processInfo.environment["DDKPI_BYPASS_ROLLUPS"] != "1" }

    /// Recomputes every rollup from the feed tables; returns the store-months written.
    @discardableResult
    public func rebuildRollups() throws -> Int {
        try backend.write { session in try Self.rebuildRollups(session, layout: .current) }
    }

    /// Compares every rollup with a full recomputation; an empty result means they agree.
    public func checkRollups() throws -> [RollupDifference] {
        try backend.read { session in try Self.rollupDifferences(session) }
    }

    private static func rollupDifferences(_ session: some SQLSession) throws -> [RollupDifference] {
        let stored = try rollupMeasures(session, months: nil)
        let recomputed = try recomputeAll(session)
        return Set(stored.keys).union(recomputed.keys).sorted().compactMap { key in
            stored[key] == recomputed[key]
                ? nil : RollupDifference(key: key, stored: stored[key], recomputed: recomputed[key])
        }
    }

    /// The rollup rows of `months` (every month when `nil`), as stored.
    func storedRollups(months: [String]?) throws -> [StoreMonth: MeasureSums] {
        try backend.read { session in try Self.rollupMeasures(session, months: months) }
    }

    /// The rebuild "v5: store-month rollups" runs when it creates the table: the columns that
    /// step created, as it has always written them (later steps fill the columns they add).
    static func rebuildRollups(_ session: some SQLSession) throws -> Int {
        try rebuildRollups(session, layout: .v5)
    }

    /// Recomputes every rollup from the feed tables and writes the columns of `layout`.
    static func rebuildRollups(_ session: some SQLSession, layout: RollupLayout) throws -> Int {
        try session.execute("DELETE FROM store_month_rollup")
        let all = try recomputeAll(session)
        try writeRollups(session, all, layout: layout)
        return all.count
    }

    /// Recomputes the rollups of `touched` store-months (a file's keys), inside the caller's
    /// transaction: each month's sums scanned, then all of them written in one go (one merge on
    /// PostgreSQL rather than one per month).
    static func refreshRollups(_ session: some SQLSession, touched: Set<StoreMonth>) throws {
        var refreshed: [(key: StoreMonth, value: MeasureSums)] = []
        for (month, group) in Dictionary(grouping: touched, by: \.month) {
            guard let first = CivilDate(iso8601: month + "-01") else { continue }
            let last = first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
            let sums = try scanMeasures(session, from: first, through: last)
            for key in group {
                if let value = sums[key] {
                    refreshed.append((key, value))
                } else {
                    try session.execute(
                        "DELETE FROM store_month_rollup WHERE month = ? AND store_code = ?",
                        [.text(key.month), .text(key.store)])
                }
            }
        }
        try writeRollups(session, refreshed)
    }

    /// The rollups of `months` (every month when `nil`).
    static func rollupMeasures(_ session: some SQLSession, months: [String]?) throws -> [StoreMonth: MeasureSums] {
        var stores = StoreSlots()
        return try rollupMeasures(session, months: months, stores: &stores).keyed(by: stores)
    }

    /// The rollups of `months` (every month when `nil`) per month and store slot, the stores
    /// numbered in `stores`.
    static func rollupMeasures(_ session: some SQLSession, months: [String]?, stores: inout StoreSlots) throws
        -> MonthSlotSums
    {
        var sums = MonthSlotSums()
        if let months, months.isEmpty { return sums }
        let condition = months.map { "WHERE month IN (\(placeholders($0.count)))" } ?? ""
        let sql = "SELECT \(rollupColumns.joined(separator: ", ")) FROM store_month_rollup \(condition)"
        var month: (text: String, position: Int)?
        try session.scan(sql, (months ?? []).map(SQLValue.text)) { row in
            let text = row.text(1)
            let position: Int
            if let month, month.text == text {
                position = month.position
            } else {
                position = sums.position(of: text)
                month = (text, position)
            }
            sums.update(month: position, slot: stores.slot(of: row, column: 0)) { value in
                value.salesCents = Int128(row.int64(2))
                value.transactions = Int128(row.int64(3))
                value.items = Int128(row.int64(4))
                value.ccpWeighted = Int128(row.text(5)) ?? 0
                value.ccpItems = Int128(row.int64(6))
                value.gpWeighted = Int128(row.text(7)) ?? 0
                value.gpSalesCents = Int128(row.int64(8))
                value.applications = Int128(row.int64(9))
                value.reviews = Int128(row.int64(10))
                value.intakes = Int128(row.int64(11))
                value.calls = Int128(row.int64(12))
                value.salesCentsWithoutTransactions = Int128(row.int64(13))
                value.itemsWithoutTransactions = Int128(row.int64(14))
                value.transactionsWithoutItems = Int128(row.int64(15))
            }
        }
        return sums
    }

    /// The rollup columns, the key first (`store_code, month`), as `rollupMeasures` reads them.
    static let rollupColumns = RollupLayout.current.columns

    /// The columns of the rollup table a writer fills.
    enum RollupLayout {
        /// The columns "v5: store-month rollups" created.
        case v5
        /// Every column, with the sums of rows that lack a count "v13: optional sales measures" added.
        case current

        /// The columns, the key first (`store_code, month`).
        var columns: [String] {
            let v5 = [
                "store_code", "month", "sales_cents", "transactions", "items", "ccp_weighted", "ccp_items",
                "gp_weighted", "gp_sales_cents", "applications", "reviews", "intakes", "calls",
            ]
            switch self {
            case .v5: return v5
            case .current: return v5 + V13OptionalSalesMeasures.rollupColumns
            }
        }

        /// The upsert of these columns: keyed by month then store, like the feed tables.
        var upsert: UpsertStatement {
            UpsertStatement(
                table: "store_month_rollup", key: ["month", "store_code"], values: Array(columns.dropFirst(2)))
        }
    }

    /// The rollup upsert of every column.
    private static let rollupUpsert = RollupLayout.current.upsert

    /// Writes the given rollup rows (inserting or replacing), the session's batch size per upsert;
    /// `keysNew` when no two of them share a store-month and the session wrote none before.
    static func writeRollups<Rows: Sequence>(
        _ session: some SQLSession, _ rows: Rows, keysNew: Bool = false, layout: RollupLayout = .current
    ) throws
    where Rows.Element == (key: StoreMonth, value: MeasureSums) {
        let upsert = layout == .current ? rollupUpsert : layout.upsert
        var pending = PendingValues(capacity: min(session.upsertBatchSize, 4096) * layout.columns.count)
        var count = 0
        func flush() throws {
            guard count > 0 else { return }
            try session.upsert(upsert, pending, rows: count, keysNew: keysNew)
            pending.removeAll()
            count = 0
        }
        for (key, sums) in rows {
            func integer(_ value: Int128) throws -> Int64 {
                guard let exact = Int64(exactly: value) else {
                    throw WarehouseError(
                        message: "store \(key.store), \(key.month): a monthly sum (\(value)) exceeds 64 bits")
                }
                return exact
            }
            pending.add(key.month)
            pending.add(key.store)
            pending.add(try integer(sums.salesCents))
            pending.add(try integer(sums.transactions))
            pending.add(try integer(sums.items))
            pending.add(decimalText: sums.ccpWeighted)
            pending.add(try integer(sums.ccpItems))
            pending.add(decimalText: sums.gpWeighted)
            pending.add(try integer(sums.gpSalesCents))
            pending.add(try integer(sums.applications))
            pending.add(try integer(sums.reviews))
            pending.add(try integer(sums.intakes))
            pending.add(try integer(sums.calls))
            if layout == .current {
                pending.add(try integer(sums.salesCentsWithoutTransactions))
                pending.add(try integer(sums.itemsWithoutTransactions))
                pending.add(try integer(sums.transactionsWithoutItems))
            }
            count += 1
            if count == session.upsertBatchSize { try flush() }
        }
        try flush()
    }

    /// Every store-month's measures, recomputed from the feed tables one month at a time.
    private static func recomputeAll(_ session: some SQLSession) throws -> [StoreMonth: MeasureSums] {
        var first: CivilDate?
        var last: CivilDate?
        for table in FeedTables.rolledUp {
            let column = table.period.dateColumn
            try session.scan("SELECT min(\(column)), max(\(column)) FROM \(table.name)") { row in
                guard let low = CivilDate(iso8601: row.text(0)), let high = CivilDate(iso8601: row.text(1)) else {
                    return
                }
                first = min(first ?? low, low)
                last = max(last ?? high, high.adding(days: table.period.daysAfterKey))
            }
        }
        guard let first, let last else { return [:] }
        var all: [StoreMonth: MeasureSums] = [:]
        for part in CivilDate.monthParts(from: CivilDate(year: first.year, month: first.month, day: 1), through: last) {
            let monthEnd = part.start.adding(days: CivilDate.daysIn(month: part.start.month, year: part.start.year) - 1)
            all.merge(try scanMeasures(session, from: part.start, through: monthEnd)) { $0 + $1 }
        }
        return all
    }
}

/// What one file's records add to the store-month rollups, summed as they are written.
///
/// When every record of the file was an insert, no earlier row of its keys existed, so the
/// rollups change by exactly these sums: the accumulator adds them. Otherwise (a re-sent or
/// corrected file), or when a sum would leave 64 bits, the store-months it touched are
/// recomputed from the feed tables.
struct RollupAccumulator {
    /// A store (its number in the file's `RunStoreTally`) and a month as `year × 12 + month − 1`:
    /// cheaper to find per record than text.
    private struct Key: Hashable {
        let store: Int
        let month: Int

        init(_ store: Int, _ date: CivilDate) {
            self.store = store
            month = date.year * 12 + date.month - 1
        }

        func storeMonth(_ codes: [String]) -> StoreMonth {
            StoreMonth(store: codes[store], month: Self.text(of: month))
        }

        /// A month number's `YYYY-MM` (`CivilDate.iso8601Month`, as month keys are written everywhere).
        static func text(of month: Int) -> String {
            CivilDate(year: month / 12, month: month % 12 + 1, day: 1).iso8601Month
        }
    }

    /// One store-month's additions, compact (a file holds about one per 30 rows): 64-bit sums
    /// checked for overflow, the two weighted sums in 128 bits.
    private struct Delta {
        var salesCents: Int64 = 0
        var transactions: Int64 = 0
        var items: Int64 = 0
        var salesCentsWithoutTransactions: Int64 = 0
        var itemsWithoutTransactions: Int64 = 0
        var transactionsWithoutItems: Int64 = 0
        var ccpWeighted: Int128 = 0
        var ccpItems: Int64 = 0
        var gpWeighted: Int128 = 0
        var gpSalesCents: Int64 = 0
        var applications: Int64 = 0
        var reviews: Int64 = 0
        var intakes: Int64 = 0
        var calls: Int64 = 0

        /// Adds a sales-audit row, as `MeasureSums.addSales` does; `false` when a 64-bit sum
        /// overflowed.
        mutating func add(_ figures: SalesFigures) -> Bool {
            var fits = Self.add(figures.totalSalesCents, to: &salesCents)
            let items = figures.totalItems.map(Int64.init)
            let transactions = figures.totalTransactions.map(Int64.init)
            if let transactions {
                fits = Self.add(transactions, to: &self.transactions) && fits
                if items == nil { fits = Self.add(transactions, to: &transactionsWithoutItems) && fits }
            } else {
                fits = Self.add(figures.totalSalesCents, to: &salesCentsWithoutTransactions) && fits
            }
            if let items {
                fits = Self.add(items, to: &self.items) && fits
                if transactions == nil { fits = Self.add(items, to: &itemsWithoutTransactions) && fits }
                if let ccp = figures.ccpPctMillionths {
                    ccpWeighted += Int128(ccp) * Int128(items)
                    fits = Self.add(items, to: &ccpItems) && fits
                }
            }
            if let gp = figures.gpPctMillionths {
                gpWeighted += Int128(gp) * Int128(figures.totalSalesCents)
                fits = Self.add(figures.totalSalesCents, to: &gpSalesCents) && fits
            }
            return fits
        }

        /// Adds a count to one of the counted measures; `false` when it overflowed, or when the
        /// measure is not one an event feed counts (the rollups are then recomputed from the tables).
        mutating func add(_ count: Int64, to measure: MeasureName) -> Bool {
            switch measure {
            case .applications: return Self.add(count, to: &applications)
            case .reviews: return Self.add(count, to: &reviews)
            case .intakes: return Self.add(count, to: &intakes)
            case .calls: return Self.add(count, to: &calls)
            case .salesCents, .transactions, .items, .ccpWeighted, .ccpItems, .gpWeighted, .gpSalesCents: return false
            }
        }

        @inline(__always) private static func add(_ value: Int64, to sum: inout Int64) -> Bool {
            let (result, overflow) = sum.addingReportingOverflow(value)
            sum = result
            return !overflow
        }

        var measures: MeasureSums {
            var sums = MeasureSums()
            sums.salesCents = Int128(salesCents)
            sums.transactions = Int128(transactions)
            sums.items = Int128(items)
            sums.salesCentsWithoutTransactions = Int128(salesCentsWithoutTransactions)
            sums.itemsWithoutTransactions = Int128(itemsWithoutTransactions)
            sums.transactionsWithoutItems = Int128(transactionsWithoutItems)
            sums.ccpWeighted = ccpWeighted
            sums.ccpItems = Int128(ccpItems)
            sums.gpWeighted = gpWeighted
            sums.gpSalesCents = Int128(gpSalesCents)
            sums.applications = Int128(applications)
            sums.reviews = Int128(reviews)
            sums.intakes = Int128(intakes)
            sums.calls = Int128(calls)
            return sums
        }
    }

    /// The store-months' additions, in the order they came, and where each one's key is.
    private var deltas: [(key: Key, delta: Delta)] = []
    private var deltaIndex: [Key: Int] = [:]
    /// Per store slot, the index in `deltas` of its latest store-month: records come date by
    /// date, so a store's next record is mostly in the same month, found without hashing.
    private var latestDelta: [Int?] = []
    /// Months a record may change without adding to them (the other month of a week that spans
    /// two), for the recomputation after a re-sent file.
    private var alsoTouched = Set<Key>()
    /// A 64-bit sum overflowed: recompute instead of adding.
    private var overflowed = false

    /// Adds a sales-audit row of the store numbered `store`.
    mutating func add(_ record: SalesAuditRecord, store: Int) {
        let index = deltaIndex(Key(store, record.date))
        if !deltas[index].delta.add(record.figures) { overflowed = true }
    }

    /// Adds a day's count of the store numbered `store`.
    mutating func add(_ record: DailyCountRecord, _ measure: MeasureName, store: Int) {
        add(Int64(record.count), to: measure, at: Key(store, record.date))
    }

    /// A week's counts go to the month of each day when the days are known, else the week's
    /// total to the month of its week start, as `scanMeasures` reads them; both months of a
    /// week that spans two are touched either way.
    mutating func add(_ record: WeeklyCountRecord, _ measure: MeasureName, store: Int) {
        let start = Key(store, record.weekStart)
        alsoTouched.insert(start)
        alsoTouched.insert(Key(store, record.weekStart.adding(days: 6)))
        guard let days = record.dailyCounts else { return add(Int64(record.total), to: measure, at: start) }
        for (offset, count) in days.enumerated() where count != 0 {
            add(Int64(count), to: measure, at: Key(store, record.weekStart.adding(days: offset)))
        }
    }

    private mutating func add(_ count: Int64, to measure: MeasureName, at key: Key) {
        let index = deltaIndex(key)
        if !deltas[index].delta.add(count, to: measure) { overflowed = true }
    }

    /// The index in `deltas` of `key`'s additions, made empty on its first record.
    private mutating func deltaIndex(_ key: Key) -> Int {
        if latestDelta.count <= key.store {
            latestDelta.append(contentsOf: repeatElement(nil, count: key.store + 1 - latestDelta.count))
        }
        if let latest = latestDelta[key.store], deltas[latest].key == key { return latest }
        let index = deltaIndex[key] ?? deltas.count
        if index == deltas.count {
            deltas.append((key, Delta()))
            deltaIndex[key] = index
        }
        latestDelta[key.store] = index
        return index
    }

    /// Brings the rollups of the touched store-months up to date, inside the file's transaction;
    /// `storeCodes` are the codes the stores are numbered by.
    func apply(_ session: some SQLSession, storeCodes codes: [String], onlyInserts: Bool) throws {
        guard onlyInserts, !overflowed else {
            return try Warehouse.refreshRollups(
                session,
                touched: Set(deltas.map { $0.key.storeMonth(codes) }).union(alsoTouched.map { $0.storeMonth(codes) }))
        }
        guard !deltas.isEmpty else { return }
        // Each month's text made once, not once per store (a million-row file: 32,880
        // store-months of 823 months); the months' stored rollups read in one query.
        var months: [Int: String] = [:]
        for (key, _) in deltas where months[key.month] == nil { months[key.month] = Key.text(of: key.month) }
        let stored = try Warehouse.rollupMeasures(session, months: months.values.sorted())
        // One entry per store-month, and the file's only write of the rollups: their keys are new.
        try Warehouse.writeRollups(
            session,
            deltas.lazy.map { key, delta in
                let storeMonth = StoreMonth(
                    store: codes[key.store], month: months[key.month] ?? Key.text(of: key.month))
                let added = delta.measures
                let before = stored.isEmpty ? nil : stored[storeMonth]
                return (key: storeMonth, value: before.map { $0 + added } ?? added)
            },
            keysNew: true)
    }
}
