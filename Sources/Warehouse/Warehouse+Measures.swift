import Feeds
import GRDB
import SheetStream

/// The additive measures of one store over part of a period: every KPI is a ratio or a sum of
/// these, so any rollup sums measures first and divides once (SPEC section 7).
public struct MeasureSums: Equatable, Sendable {
    public var sales = 0.0
    public var transactions = 0.0
    public var items = 0.0
    /// Σ ccpPct × items, over days that report CCP.
    public var ccpWeighted = 0.0
    /// Σ items over days that report CCP (the CCP denominator).
    public var ccpItems = 0.0
    /// Σ gpPct × sales, over days that report GP.
    public var gpWeighted = 0.0
    /// Σ sales over days that report GP (the GP denominator).
    public var gpSales = 0.0
    public var applications = 0.0
    public var reviews = 0.0
    public var intakes = 0.0
    public var calls = 0.0

    public init() {}

    public static func + (lhs: MeasureSums, rhs: MeasureSums) -> MeasureSums {
        var sum = lhs
        sum += rhs
        return sum
    }

    public static func += (lhs: inout MeasureSums, rhs: MeasureSums) {
        lhs.sales += rhs.sales
        lhs.transactions += rhs.transactions
        lhs.items += rhs.items
        lhs.ccpWeighted += rhs.ccpWeighted
        lhs.ccpItems += rhs.ccpItems
        lhs.gpWeighted += rhs.gpWeighted
        lhs.gpSales += rhs.gpSales
        lhs.applications += rhs.applications
        lhs.reviews += rhs.reviews
        lhs.intakes += rhs.intakes
        lhs.calls += rhs.calls
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
    /// Daily tables are read once per range in primary-key order (date, store) and summed here
    /// by store and month: a `GROUP BY store` in SQL would sort every month part's rows instead.
    public func measures(from start: CivilDate, through end: CivilDate) throws -> [StoreMonth: MeasureSums] {
        try pool.read { db in
            var sums: [StoreMonth: MeasureSums] = [:]
            let range: StatementArguments = [start.iso8601, end.iso8601]
            for source in Self.dailyMeasureSources {
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT date, store_code, \(source.expressions.joined(separator: ", ")) FROM \(source.table)
                        WHERE date BETWEEN ? AND ? AND store_code IN (SELECT code FROM store)
                        """)
                var month = ""
                let rows = try GRDB.Row.fetchCursor(statement, arguments: range)
                while let row = try rows.next() {
                    let date: String = row[0]
                    if !date.hasPrefix(month) || month.isEmpty { month = String(date.prefix(7)) }
                    let key = StoreMonth(store: row[1], month: month)
                    var value = sums[key] ?? MeasureSums()
                    for (offset, path) in source.measures.enumerated() { value[keyPath: path] += row[2 + offset] ?? 0 }
                    sums[key] = value
                }
            }
            for (table, column, path) in [
                ("birdeye_report", "review_count", \MeasureSums.reviews),
                ("outbound_call_report", "total_calls", \MeasureSums.calls),
            ] {
                let statement = try db.cachedStatement(
                    sql: """
                        SELECT store_code, week_start, \(column), day_0, day_1, day_2, day_3, day_4, day_5, day_6
                        FROM \(table)
                        WHERE store_code IN (SELECT code FROM store) AND week_start BETWEEN ? AND ?
                        ORDER BY store_code, week_start
                        """)
                let arguments: StatementArguments = [start.adding(days: -6).iso8601, end.iso8601]
                for row in try GRDB.Row.fetchAll(statement, arguments: arguments) {
                    let store: String = row[0]
                    guard let weekStart = CivilDate(iso8601: row[1]) else { continue }
                    let days: [Int?] = (0..<7).map { row[3 + $0] }
                    if days.allSatisfy({ $0 != nil }) {
                        for (offset, count) in days.enumerated() {
                            let day = weekStart.adding(days: offset)
                            guard day >= start, day <= end, let count, count != 0 else { continue }
                            sums[StoreMonth(store: store, month: String(day.iso8601.prefix(7))), default: MeasureSums()][keyPath: path] += Double(count)
                        }
                    } else if weekStart >= start, weekStart <= end {
                        let total: Int = row[2]
                        sums[StoreMonth(store: store, month: String(weekStart.iso8601.prefix(7))), default: MeasureSums()][keyPath: path] += Double(total)
                    }
                }
            }
            return sums
        }
    }

    /// A daily feed table and the SQL expressions its measures are summed from.
    private struct DailyMeasureSource {
        let table: String
        let expressions: [String]
        let measures: [WritableKeyPath<MeasureSums, Double>]
    }

    private static let dailyMeasureSources = [
        DailyMeasureSource(
            table: "store_report",
            expressions: [
                "total_sales", "total_transactions", "total_items", "ccp_pct * total_items",
                "CASE WHEN ccp_pct IS NOT NULL THEN total_items END", "gp_pct * total_sales",
                "CASE WHEN gp_pct IS NOT NULL THEN total_sales END",
            ],
            measures: [\.sales, \.transactions, \.items, \.ccpWeighted, \.ccpItems, \.gpWeighted, \.gpSales]),
        DailyMeasureSource(table: "credit_report", expressions: ["total_applications"], measures: [\.applications]),
        DailyMeasureSource(table: "crm_intake_report", expressions: ["total_intakes"], measures: [\.intakes]),
    ]

    /// Goals whose period is one of `months` (`YYYY-MM`).
    public func goals(months: Set<String>) throws -> [GoalRecord] {
        guard !months.isEmpty else { return [] }
        let placeholders = months.map { _ in "?" }.joined(separator: ", ")
        return try pool.read { db in
            try GRDB.Row.fetchAll(
                db,
                sql: "SELECT period, scope, metric, target, date FROM goal WHERE period IN (\(placeholders)) ORDER BY period, scope, metric, date",
                arguments: StatementArguments(months.sorted())
            ).map { row in
                let date: String = row["date"]
                return GoalRecord(
                    period: row["period"], scope: row["scope"], metric: row["metric"], target: row["target"],
                    date: date.isEmpty ? nil : CivilDate(iso8601: date))
            }
        }
    }

    /// Whether any feed has a record in `[start, end]`.
    public func hasData(from start: CivilDate, through end: CivilDate) throws -> Bool {
        try pool.read { db in
            let daily = ["store_report", "credit_report", "crm_intake_report"].map {
                "SELECT 1 FROM \($0) WHERE date BETWEEN ?1 AND ?2"
            }
            let weekly = ["birdeye_report", "outbound_call_report"].map {
                "SELECT 1 FROM \($0) WHERE week_start BETWEEN date(?1, '-6 days') AND ?2"
            }
            let sql = "SELECT EXISTS (" + (daily + weekly).joined(separator: " UNION ALL ") + ")"
            return try Bool.fetchOne(db, sql: sql, arguments: [start.iso8601, end.iso8601]) ?? false
        }
    }
}
