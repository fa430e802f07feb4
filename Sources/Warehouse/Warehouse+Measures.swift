import CivilCalendar
import Feeds

/// The additive measures of one store over part of a period: every KPI is a ratio or a sum of
/// these, so any rollup sums measures first and divides once (SPEC section 7).
///
/// Every measure is an exact integer (money in cents, percents in millionths, SPEC section 4),
/// held in 128 bits so that no sum of 64-bit products can overflow: sums are exact and
/// independent of their grouping order.
public struct MeasureSums: Equatable, Sendable {
    /// Σ sales, in cents.
    public var salesCents: Int128 = 0
    /// Σ transactions over rows that report them (SPEC section 26: a file may not).
    public var transactions: Int128 = 0
    /// Σ items over rows that report them.
    public var items: Int128 = 0
    /// Σ sales in cents over rows that do not report transactions.
    public var salesCentsWithoutTransactions: Int128 = 0
    /// Σ items over rows that report items but not transactions.
    public var itemsWithoutTransactions: Int128 = 0
    /// Σ transactions over rows that report transactions but not items.
    public var transactionsWithoutItems: Int128 = 0
    /// Σ ccpPct (millionths) × items, over rows that report CCP and items.
    public var ccpWeighted: Int128 = 0
    /// Σ items over rows that report CCP and items (the CCP denominator).
    public var ccpItems: Int128 = 0
    /// Σ gpPct (millionths) × sales (cents), over rows that report GP.
    public var gpWeighted: Int128 = 0
    /// Σ sales in cents over rows that report GP (the GP denominator).
    public var gpSalesCents: Int128 = 0
    public var applications: Int128 = 0
    public var reviews: Int128 = 0
    public var intakes: Int128 = 0
    public var calls: Int128 = 0

    public init() {}

    /// Σ sales in cents over rows that report transactions (the average sale's numerator).
    public var salesCentsWithTransactions: Int128 { salesCents - salesCentsWithoutTransactions }
    /// Σ items over rows that report items and transactions (UPT's numerator).
    public var itemsWithTransactions: Int128 { items - itemsWithoutTransactions }
    /// Σ transactions over rows that report transactions and items (UPT's denominator).
    public var transactionsWithItems: Int128 { transactions - transactionsWithoutItems }

    public static func + (lhs: MeasureSums, rhs: MeasureSums) -> MeasureSums {
        var sum = lhs
        sum += rhs
        return sum
    }

    public static func += (lhs: inout MeasureSums, rhs: MeasureSums) {
        lhs.salesCents += rhs.salesCents
        lhs.transactions += rhs.transactions
        lhs.items += rhs.items
        lhs.salesCentsWithoutTransactions += rhs.salesCentsWithoutTransactions
        lhs.itemsWithoutTransactions += rhs.itemsWithoutTransactions
        lhs.transactionsWithoutItems += rhs.transactionsWithoutItems
        lhs.ccpWeighted += rhs.ccpWeighted
        lhs.ccpItems += rhs.ccpItems
        lhs.gpWeighted += rhs.gpWeighted
        lhs.gpSalesCents += rhs.gpSalesCents
        lhs.applications += rhs.applications
        lhs.reviews += rhs.reviews
        lhs.intakes += rhs.intakes
        lhs.calls += rhs.calls
    }

    /// Takes away another sum (a month's rollup less the days outside a part: exact integers).
    public static func -= (lhs: inout MeasureSums, rhs: MeasureSums) {
        lhs.salesCents -= rhs.salesCents
        lhs.transactions -= rhs.transactions
        lhs.items -= rhs.items
        lhs.salesCentsWithoutTransactions -= rhs.salesCentsWithoutTransactions
        lhs.itemsWithoutTransactions -= rhs.itemsWithoutTransactions
        lhs.transactionsWithoutItems -= rhs.transactionsWithoutItems
        lhs.ccpWeighted -= rhs.ccpWeighted
        lhs.ccpItems -= rhs.ccpItems
        lhs.gpWeighted -= rhs.gpWeighted
        lhs.gpSalesCents -= rhs.gpSalesCents
        lhs.applications -= rhs.applications
        lhs.reviews -= rhs.reviews
        lhs.intakes -= rhs.intakes
        lhs.calls -= rhs.calls
    }

    /// Adds one sales-audit row (cents, counts, percents in millionths); an unknown count
    /// (`nil`) adds to no sum that needs it.
    @inline(__always) mutating func addSales(
        cents: Int64, transactions: Int64?, items: Int64?, ccpMillionths: Int64?, gpMillionths: Int64?
    ) {
        salesCents += Int128(cents)
        if let transactions {
            self.transactions += Int128(transactions)
            if items == nil { transactionsWithoutItems += Int128(transactions) }
        } else {
            salesCentsWithoutTransactions += Int128(cents)
        }
        if let items {
            self.items += Int128(items)
            if transactions == nil { itemsWithoutTransactions += Int128(items) }
            if let ccpMillionths {
                ccpWeighted += Int128(ccpMillionths) * Int128(items)
                ccpItems += Int128(items)
            }
        }
        if let gpMillionths {
            gpWeighted += Int128(gpMillionths) * Int128(cents)
            gpSalesCents += Int128(cents)
        }
    }
}

/// A store and a calendar month (`YYYY-MM`): the component targets are merged and weighted in.
public struct StoreMonth: Hashable, Sendable, Comparable {
    public var store: String
    public var month: String

    public init(store: String, month: String) {
        self.store = store
        self.month = month
    }

    public static func < (lhs: StoreMonth, rhs: StoreMonth) -> Bool { (lhs.store, lhs.month) < (rhs.store, rhs.month) }
}

extension Warehouse {
    /// Measures per store and month over `[start, end]` (inclusive). Weekly feeds count each
    /// day's count on its own day when the days are known, else the week's total in the month of
    /// its week start, when that lies in the range.
    ///
    /// Months come from the store-month rollups where they serve (SPEC section 13, see
    /// `MeasurePlan`), the rest from the feed tables; with `usesRollups` off, everything comes
    /// from the feed tables. Both give the same exact integers.
    public func measures(from start: CivilDate, through end: CivilDate) throws -> [StoreMonth: MeasureSums] {
        try measures(parts: DateRange(start: start, end: end).monthParts.map { ($0.month, $0.part) })
    }

    /// Measures per store and labelled part, keyed `StoreMonth(store, label)`: each part a range
    /// of its own (disjoint; the fiscal months of a period, or its calendar months), summed as
    /// `measures(from:through:)` sums a range.
    public func measures(parts: [(label: String, range: DateRange)]) throws -> [StoreMonth: MeasureSums] {
        let measures = try measures(of: parts.map(\.range))
        var keyed: [StoreMonth: MeasureSums] = [:]
        for (part, label) in parts.map(\.label).enumerated() {
            for (store, code) in measures.stores.enumerated() {
                if let sums = measures.measures(part: part, store: store) {
                    keyed[StoreMonth(store: code, month: label), default: MeasureSums()] += sums
                }
            }
        }
        return keyed
    }

    /// Measures per store of each of `parts` (disjoint ranges), summed as
    /// `measures(from:through:)` sums a range, with the stores numbered once for all parts.
    ///
    /// Months come from the store-month rollups where they serve (SPEC section 13, see
    /// `MeasurePlan`), the rest from the feed tables, each range of days read once however many
    /// parts add or subtract it.
    public func measures(of parts: [DateRange]) throws -> PartMeasures {
        let plan = MeasurePlan(parts: parts, usesRollups: usesRollups)
        return try backend.read { session in
            var stores = StoreSlots()
            var sums = Array(repeating: SlotSums(), count: parts.count)
            let rollups = try Self.rollupMeasures(session, months: plan.rollupMonths, stores: &stores)
            for term in plan.rollups {
                sums[term.part].add(rollups.sums(of: term.month))
            }
            var scanned: [DateRange: MonthSlotSums] = [:]
            for term in plan.scans {
                let measures =
                    try scanned[term.range]
                    ?? Self.scanMeasures(session, from: term.range.start, through: term.range.end, stores: &stores)
                scanned[term.range] = measures
                for month in measures.byMonth {
                    sums[term.part].add(month, subtracting: term.subtracts)
                }
            }
            return PartMeasures(stores: stores, parts: sums)
        }
    }

    /// Measures per store and month over `[start, end]`, summed from the feed tables: the source
    /// of truth the rollups are built from and checked against.
    static func scanMeasures(_ session: some SQLSession, from start: CivilDate, through end: CivilDate)
        throws -> [StoreMonth: MeasureSums]
    {
        var stores = StoreSlots()
        return try scanMeasures(session, from: start, through: end, stores: &stores).keyed(by: stores)
    }

    /// Measures per month and store slot over `[start, end]`, summed from the feed tables, the
    /// stores numbered in `stores` (shared by the scans and rollups of one query).
    ///
    /// Every row's store is in the directory (a foreign key), so no row is filtered by store.
    /// Daily tables are read in primary-key order (date, store) and summed here by store and
    /// month: a `GROUP BY store` in SQL would sort every month part's rows, and its products of
    /// percents and money could leave 64 bits.
    static func scanMeasures<Session: SQLSession>(
        _ session: Session, from start: CivilDate, through end: CivilDate, stores: inout StoreSlots
    ) throws -> MonthSlotSums {
        var sums = MonthSlotSums()
        for (table, measures) in FeedTables.measured(.day) {
            let sql = """
                SELECT date, store_code, \(measures.columns.joined(separator: ", ")) FROM \(table.name)
                WHERE date BETWEEN ? AND ? ORDER BY date
                """
            // Rows come date by date, every store within a date: the month changes seldom.
            var month: (packed: UInt64?, position: Int)?
            try session.scan(sql, [.text(start.iso8601), .text(end.iso8601)]) { row in
                let rowMonth = row.packedText(0, prefix: 7)
                let position: Int
                if let month, month.packed == rowMonth {
                    position = month.position
                } else {
                    position = sums.position(of: row.text(0, prefix: 7))
                    month = (rowMonth, position)
                }
                sums.update(month: position, slot: stores.slot(of: row, column: 1)) {
                    measures.add(row, from: 2, to: &$0)
                }
            }
        }
        for (table, measures) in FeedTables.measured(.week) {
            guard case .count(let column, let measure) = measures else { continue }
            try scanWeeks(
                session, table: table.name, column: column, from: start, through: end, stores: &stores, into: &sums,
                at: measure.writablePath)
        }
        return sums
    }

    /// Sums a weekly table's counts over `[start, end]` per store and month: each day's count on
    /// its own day when the week's days are known, else the week's total in the month of its
    /// start when that lies in the range (a total of 0 still names its store-month, as the
    /// rollups always have). Weeks are few, so each week's months are worked out once.
    private static func scanWeeks(
        _ session: some SQLSession, table: String, column: String, from start: CivilDate, through end: CivilDate,
        stores: inout StoreSlots, into sums: inout MonthSlotSums, at measure: WritableKeyPath<MeasureSums, Int128>
    ) throws {
        let sql = """
            SELECT store_code, week_start, \(column), \(FeedTables.weekdayColumns.joined(separator: ", "))
            FROM \(table) WHERE week_start BETWEEN ? AND ?
            """
        let (firstDay, lastDay) = (start.daysSinceEpoch, end.daysSinceEpoch)
        var weeks: [Int: WeekInMonths] = [:]
        var last: (number: Int, week: WeekInMonths)?
        func monthPosition(_ day: CivilDate) -> Int { sums.position(of: day.iso8601Month) }
        try session.scan(sql, [.text(start.adding(days: -6).iso8601), .text(end.iso8601)]) { row in
            let number = row.dateNumber(1)
            let week: WeekInMonths
            if let last, last.number == number {
                week = last.week
            } else if let known = weeks[number] {
                week = known
                last = (number, known)
            } else {
                guard let weekStart = CivilDate(iso8601: row.text(1)) else { return }
                let daysInFirstMonth =
                    CivilDate.daysIn(month: weekStart.month, year: weekStart.year) - weekStart.day + 1
                week = WeekInMonths(
                    firstDay: weekStart.daysSinceEpoch,
                    months: (monthPosition(weekStart), monthPosition(weekStart.adding(days: 6))),
                    daysInFirstMonth: daysInFirstMonth)
                weeks[number] = week
                last = (number, week)
            }
            let slot = stores.slot(of: row, column: 0)
            var first: Int128?
            var second: Int128?
            var daysKnown = true
            for offset in 0..<7 {
                guard let count = row.optionalInt64(3 + Int32(offset)) else {
                    daysKnown = false
                    break
                }
                let day = week.firstDay + offset
                guard count != 0, day >= firstDay, day <= lastDay else { continue }
                if offset < week.daysInFirstMonth {
                    first = (first ?? 0) + Int128(count)
                } else {
                    second = (second ?? 0) + Int128(count)
                }
            }
            if !daysKnown {
                let totalCounts = week.firstDay >= firstDay && week.firstDay <= lastDay
                (first, second) = (totalCounts ? Int128(row.int64(2)) : nil, nil)
            }
            if let first { sums.update(month: week.months.first, slot: slot) { $0[keyPath: measure] += first } }
            if let second { sums.update(month: week.months.second, slot: slot) { $0[keyPath: measure] += second } }
        }
    }

    /// How many goals name a calendar month (`YYYY-MM`) and how many a fiscal month (`FY2025-M04`).
    public func goalMonthKinds() throws -> (calendar: Int, fiscal: Int) {
        try backend.read { session in
            let all = try session.integer("SELECT COUNT(*) FROM goal", []) ?? 0
            let fiscal = try session.integer("SELECT COUNT(*) FROM goal WHERE period LIKE 'FY%'", []) ?? 0
            return (Int(all - fiscal), Int(fiscal))
        }
    }

    /// Goals whose period is one of `months` (`YYYY-MM`).
    public func goals(months: Set<String>) throws -> [GoalRecord] {
        guard !months.isEmpty else { return [] }
        return try backend.read { session in
            var goals: [GoalRecord] = []
            try session.scan(
                """
                SELECT period, scope, metric, target, date FROM goal WHERE period IN (\(placeholders(months.count)))
                ORDER BY period, scope, metric, date
                """,
                months.sorted().map(SQLValue.text)
            ) { row in
                let date = row.text(4)
                goals.append(
                    GoalRecord(
                        period: row.text(0), scope: row.text(1), metric: row.text(2), target: row.double(3),
                        date: date.isEmpty ? nil : CivilDate(iso8601: date)))
            }
            return goals
        }
    }
}

/// A week of a weekly table: its first day (days since 1970), its months' positions in a list
/// of month labels, and how many of its days lie in the first.
private struct WeekInMonths {
    let firstDay: Int
    let months: (first: Int, second: Int)
    let daysInFirstMonth: Int
}
