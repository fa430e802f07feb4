import Feeds
import Foundation
import GRDB
import SheetStream

/// A store-month whose rollup differs from a full recomputation.
public struct RollupDifference: Sendable, Equatable, CustomStringConvertible {
    public var key: StoreMonth
    /// The rollup row (`nil`: missing).
    public var stored: MeasureSums?
    /// The recomputed measures (`nil`: the rollup row should not exist).
    public var recomputed: MeasureSums?

    public var description: String {
        let what = stored == nil ? "missing" : recomputed == nil ? "has no data behind it" : "differs from a recomputation"
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
        try pool.write { db in try Self.rebuildRollups(db) }
    }

    /// Compares every rollup with a full recomputation; an empty result means they agree.
    public func checkRollups() throws -> [RollupDifference] {
        try pool.read { db in
            let stored = try Self.rollupMeasures(db, months: nil)
            let recomputed = try Self.recomputeAll(db)
            return Set(stored.keys).union(recomputed.keys).sorted().compactMap { key in
                stored[key] == recomputed[key] ? nil : RollupDifference(key: key, stored: stored[key], recomputed: recomputed[key])
            }
        }
    }

    static func rebuildRollups(_ db: Database) throws -> Int {
        try db.execute(sql: "DELETE FROM store_month_rollup")
        let all = try recomputeAll(db)
        for (key, sums) in all { try writeRollup(db, key, sums) }
        return all.count
    }

    /// Recomputes the rollups of `touched` store-months (a file's keys), inside the caller's transaction.
    static func refreshRollups(_ db: Database, touched: Set<StoreMonth>) throws {
        for (month, keys) in Dictionary(grouping: touched, by: \.month) {
            guard let first = CivilDate(iso8601: month + "-01") else { continue }
            let last = first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
            let sums = try scanMeasures(db, from: first, through: last)
            for key in keys {
                if let value = sums[key] {
                    try writeRollup(db, key, value)
                } else {
                    try db.execute(sql: "DELETE FROM store_month_rollup WHERE month = ? AND store_code = ?", arguments: [key.month, key.store])
                }
            }
        }
    }

    /// The rollups stored for `keys` (those that exist).
    static func rollupsIn(_ db: Database, _ keys: Set<StoreMonth>) throws -> [StoreMonth: MeasureSums] {
        let months = Array(Set(keys.map(\.month))).sorted()
        return try rollupMeasures(db, months: months).filter { keys.contains($0.key) }
    }

    /// Writes the given rollup rows (inserting or replacing).
    static func writeRollups(_ db: Database, _ rows: [StoreMonth: MeasureSums]) throws {
        for (key, sums) in rows { try writeRollup(db, key, sums) }
    }

    /// The rollups of `months` (every month when `nil`).
    static func rollupMeasures(_ db: Database, months: [String]?) throws -> [StoreMonth: MeasureSums] {
        if let months, months.isEmpty { return [:] }
        let condition = months.map { "WHERE month IN (\($0.map { _ in "?" }.joined(separator: ", ")))" } ?? ""
        let statement = try db.cachedStatement(sql: "SELECT \(rollupColumns.joined(separator: ", ")) FROM store_month_rollup \(condition)")
        try statement.setUncheckedArguments(StatementArguments(months ?? []))
        var sums: [StoreMonth: MeasureSums] = [:]
        try RowScanner(statement).forEach { row in
            var value = MeasureSums()
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
            sums[StoreMonth(store: row.text(0), month: row.text(1))] = value
        }
        return sums
    }

    static let rollupColumns = [
        "store_code", "month", "sales_cents", "transactions", "items", "ccp_weighted", "ccp_items", "gp_weighted",
        "gp_sales_cents", "applications", "reviews", "intakes", "calls",
    ]

    private static func writeRollup(_ db: Database, _ key: StoreMonth, _ sums: MeasureSums) throws {
        func integer(_ value: Int128) throws -> Int64 {
            guard let exact = Int64(exactly: value) else {
                throw WarehouseError(message: "store \(key.store), \(key.month): a monthly sum (\(value)) exceeds 64 bits")
            }
            return exact
        }
        let values: [any DatabaseValueConvertible] = [
            key.store, key.month, try integer(sums.salesCents), try integer(sums.transactions), try integer(sums.items),
            "\(sums.ccpWeighted)", try integer(sums.ccpItems), "\(sums.gpWeighted)", try integer(sums.gpSalesCents),
            try integer(sums.applications), try integer(sums.reviews), try integer(sums.intakes), try integer(sums.calls),
        ]
        let columns = rollupColumns.joined(separator: ", ")
        let updates = rollupColumns.dropFirst(2).map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        try db.cachedStatement(
            sql: """
                INSERT INTO store_month_rollup (\(columns)) VALUES (\(rollupColumns.map { _ in "?" }.joined(separator: ", ")))
                ON CONFLICT(month, store_code) DO UPDATE SET \(updates)
                """
        ).execute(arguments: StatementArguments(values))
    }

    /// Every store-month's measures, recomputed from the feed tables one month at a time.
    private static func recomputeAll(_ db: Database) throws -> [StoreMonth: MeasureSums] {
        let bounds = try GRDB.Row.fetchOne(
            db,
            sql: """
                SELECT min(first), max(last) FROM (
                    SELECT min(date) AS first, max(date) AS last FROM store_report
                    UNION ALL SELECT min(date), max(date) FROM credit_report
                    UNION ALL SELECT min(date), max(date) FROM crm_intake_report
                    UNION ALL SELECT min(week_start), date(max(week_start), '+6 days') FROM birdeye_report
                    UNION ALL SELECT min(week_start), date(max(week_start), '+6 days') FROM outbound_call_report)
                """)
        guard let firstText: String = bounds?[0], let lastText: String = bounds?[1],
              let first = CivilDate(iso8601: firstText), let last = CivilDate(iso8601: lastText)
        else { return [:] }
        var all: [StoreMonth: MeasureSums] = [:]
        for part in CivilDate.monthParts(from: CivilDate(year: first.year, month: first.month, day: 1), through: last) {
            let monthEnd = part.start.adding(days: CivilDate.daysIn(month: part.start.month, year: part.start.year) - 1)
            all.merge(try scanMeasures(db, from: part.start, through: monthEnd)) { $0 + $1 }
        }
        return all
    }
}

/// What one file's records add to the store-month rollups, summed as they are written.
///
/// When every record of the file was an insert, no earlier row of its keys existed, so the
/// rollups change by exactly these sums: the accumulator adds them. Otherwise (a re-sent or
/// corrected file) the store-months it touched are recomputed from the feed tables.
struct RollupAccumulator {
    /// A store and a month as `year × 12 + month − 1` (cheaper to build per record than text).
    private struct Key: Hashable {
        let store: String
        let month: Int

        init(_ store: String, _ date: CivilDate) {
            self.store = store
            month = date.year * 12 + date.month - 1
        }

        var storeMonth: StoreMonth {
            StoreMonth(store: store, month: String(format: "%04d-%02d", month / 12, month % 12 + 1))
        }
    }

    private var sums: [Key: MeasureSums] = [:]
    /// Months a record may change without adding to them (the other month of a week that spans
    /// two), for the recomputation after a re-sent file.
    private var alsoTouched = Set<Key>()

    mutating func add(_ record: SalesAuditRecord) {
        sums[Key(record.store, record.date), default: MeasureSums()].addSales(
            cents: record.totalSalesCents, transactions: Int64(record.totalTransactions), items: Int64(record.totalItems),
            ccpMillionths: record.ccpPctMillionths, gpMillionths: record.gpPctMillionths)
    }

    mutating func add(_ record: DailyCountRecord, _ measure: WritableKeyPath<MeasureSums, Int128>) {
        sums[Key(record.store, record.date), default: MeasureSums()][keyPath: measure] += Int128(record.count)
    }

    /// A week's counts go to the month of each day when the days are known, else the week's
    /// total to the month of its week start, as `scanMeasures` reads them; both months of a
    /// week that spans two are touched either way.
    mutating func add(_ record: WeeklyCountRecord, _ measure: WritableKeyPath<MeasureSums, Int128>) {
        let start = Key(record.store, record.weekStart)
        alsoTouched.insert(start)
        alsoTouched.insert(Key(record.store, record.weekStart.adding(days: 6)))
        guard let days = record.dailyCounts else {
            sums[start, default: MeasureSums()][keyPath: measure] += Int128(record.total)
            return
        }
        for (offset, count) in days.enumerated() where count != 0 {
            sums[Key(record.store, record.weekStart.adding(days: offset)), default: MeasureSums()][keyPath: measure] += Int128(count)
        }
    }

    /// Brings the rollups of the touched store-months up to date, inside the file's transaction.
    func apply(_ db: Database, onlyInserts: Bool) throws {
        guard onlyInserts else {
            return try Warehouse.refreshRollups(db, touched: Set(sums.keys.map(\.storeMonth)).union(alsoTouched.map(\.storeMonth)))
        }
        guard !sums.isEmpty else { return }
        var months = try Warehouse.rollupsIn(db, Set(sums.keys.map(\.storeMonth)))
        for (key, value) in sums { months[key.storeMonth, default: MeasureSums()] += value }
        try Warehouse.writeRollups(db, months)
    }
}
