import CivilCalendar
import Feeds
import Threads
import Warehouse

/// Associates ranked by sales per store, then chain-wide (SPEC section 9).
public struct EmployeeReport: Sendable {
    /// The as-of day.
    public var asOf: CivilDate
    /// `WTD`, `MTD`, `QTD` or `YTD`.
    public var period: String
    public var range: DateRange
    /// The days compared with (`nil`: none, a retail 53rd week).
    public var lastYear: DateRange?
    /// Stores by code, then `ALL` (only without a filter).
    public var scopes: [EmployeeScope]
}

/// One store's associates, or the chain-wide top N (`ALL`).
public struct EmployeeScope: Sendable {
    /// A store code, or `ALL`.
    public var scope: String
    /// `08 Natick (East)` or `All stores`.
    public var title: String
    public var associates: [AssociateRow]
}

/// One associate's row: rank, identity, the period's measures and what derives from them.
public struct AssociateRow: Sendable {
    /// 1…n, unique.
    public var rank: Int
    public var employeeId: String
    /// The name on the associate's latest row; `""` when no row had one.
    public var name: String
    public var measures: MeasureSums
    /// The associate's share of the scope's associate sales; `nil` when those sum to 0.
    public var share: Double?
    /// Sales over the LY range in dollars (0 without LY rows).
    public var lySales: Double
    /// `sales / lySales − 1`; `nil` without LY sales.
    public var pctVsLY: Double?
    /// Projected period-end sales (linear: associates have no targets).
    public var projectedSales: Double

    /// The metrics the report lists, in order (`share` last), each with its value.
    public var metrics: [(key: String, value: Double?)] {
        Self.metricKeys.map { key in
            switch key {
            case "share": return (key, share)
            case "totalTransactions": return (key, Double(measures.transactions))
            case "totalItems": return (key, Double(measures.items))
            default: return (key, MetricDefinition.all.first { $0.key == key }?.value(measures))
            }
        }
    }

    /// SPEC section 9's metric order.
    public static let metricKeys = [
        "totalSales", "totalTransactions", "totalItems", "avgAds", "upt", "ccpPct", "gpPct", "share",
    ]
}

extension KPIEngine {
    /// Associates ranked by sales over one to-date period as of `asOf`: every associate of each
    /// store in the filter (sales in the period other than 0), then, with no filter, the
    /// chain-wide top `top` as `ALL`, each associate summed over its stores.
    public func employees(asOf: CivilDate, period label: String, filter: ScopeFilter, top: Int) throws -> EmployeeReport
    {
        guard let period = calendar.toDatePeriods(asOf).first(where: { $0.label == label }) else {
            throw KPIError("unknown period \"\(label)\" (expected WTD, MTD, QTD or YTD)")
        }
        let lastYear = period.lastYear
        // The two ranges are read at once, on two connections of the pool (two cores).
        let warehouse = self.warehouse
        let lastYearRead = try BackgroundTask {
            try lastYear.map { try warehouse.employeeMeasures(from: $0.start, through: $0.end) } ?? [:]
        }
        let current = try warehouse.employeeMeasures(from: period.elapsed.start, through: period.elapsed.end)
        let previous = try lastYearRead.value()
        guard !current.isEmpty else {
            throw KPIError("no associate sales between \(period.elapsed.start.iso8601) and \(asOf.iso8601)")
        }
        let names = try warehouse.employeeNames()
        let ranking = AssociateRanking(
            names: names, elapsedDays: period.elapsed.days, fullDays: period.full.days)

        let reader = try warehouse.readerScope()
        let storeScopes = try Scope.resolve(filter, stores: warehouse.stores(), reader: reader).filter(\.isStore)
        var scopes = storeScopes.map { scope -> EmployeeScope in
            let store = scope.stores[0]
            let rows = current.filter { $0.key.store == store }.map { ($0.key.key, $0.value) }
            let ly = previous.filter { $0.key.store == store }.map { ($0.key.key, $0.value) }
            return EmployeeScope(
                scope: scope.id.description, title: scope.title,
                associates: ranking.rank(rows, lastYear: ly, limit: nil))
        }
        if filter == .all, reader == nil || reader == .all {
            scopes.append(
                EmployeeScope(
                    scope: ScopeID.all.description, title: "All stores — top \(top)",
                    associates: ranking.rank(
                        current.map { ($0.key.key, $0.value) }, lastYear: previous.map { ($0.key.key, $0.value) },
                        limit: top)))
        }
        return EmployeeReport(asOf: asOf, period: label, range: period.elapsed, lastYear: lastYear, scopes: scopes)
    }
}

/// Ranks associates: sums their measures by id, ranks by exact cents then id as text.
struct AssociateRanking {
    let names: [String: String]
    let elapsedDays: Int
    let fullDays: Int

    /// The ranked rows of `rows` (several per id when an associate sold at several stores: summed),
    /// listing ids whose sales are not 0, the first `limit` of them when given.
    func rank(_ rows: [(String, MeasureSums)], lastYear: [(String, MeasureSums)], limit: Int?) -> [AssociateRow] {
        let sums = Dictionary(rows, uniquingKeysWith: +)
        let lySums = Dictionary(lastYear, uniquingKeysWith: +)
        let total = sums.values.reduce(Int128(0)) { $0 + $1.salesCents }
        let ordered = sums.filter { $0.value.salesCents != 0 }.sorted { lhs, rhs in
            if lhs.value.salesCents != rhs.value.salesCents { return lhs.value.salesCents > rhs.value.salesCents }
            return lhs.key.unicodeScalars.lexicographicallyPrecedes(rhs.key.unicodeScalars)
        }
        return ordered.prefix(limit ?? ordered.count).enumerated().map { index, entry in
            let sales = MetricDefinition.divide(entry.value.salesCents, by: 100)
            let ly = MetricDefinition.divide(lySums[entry.key]?.salesCents ?? 0, by: 100)
            return AssociateRow(
                rank: index + 1, employeeId: entry.key, name: names[entry.key] ?? "", measures: entry.value,
                share: total == 0 ? nil : MetricDefinition.divide(entry.value.salesCents, by: total),
                lySales: ly, pctVsLY: KPIEngine.change(sales, from: ly),
                projectedSales: Projection(actual: sales, elapsedDays: elapsedDays, fullDays: fullDays).value)
        }
    }
}
