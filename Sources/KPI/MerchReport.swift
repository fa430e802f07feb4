import CivilCalendar
import Feeds
import Threads
import Warehouse

/// Vendor or category performance per scope (SPEC section 10).
public struct MerchReport: Sendable {
    /// `YYYYQn` for a quarter, else `MTD`, `QTD` or `YTD`.
    public var period: String
    public var dimension: MerchDimension
    public var range: DateRange
    /// The days compared with (`nil`: none, a retail 53rd week).
    public var lastYear: DateRange?
    /// Stores by code, then regions by name, then `ALL`, as the filter allows.
    public var scopes: [MerchScope]
}

/// One scope's top keys, then `(other)`.
public struct MerchScope: Sendable {
    public var scope: String
    public var title: String
    public var rows: [MerchRow]
}

/// One vendor or category of a scope, or the `(other)` line summing the rest.
public struct MerchRow: Sendable, Equatable {
    /// 1…N; `nil` for `(other)`.
    public var rank: Int?
    /// The vendor key (id, else name) or the category; `(other)` for the rest.
    public var key: String
    public var name: String
    public var salesCents: Int128
    public var items: Int128
    /// The share of the scope's sales over rows that have the dimension; `nil` when those are 0.
    public var share: Double?
    public var lySalesCents: Int128
    /// The key's rank among the scope's keys in LY; `nil` without LY sales (and for `(other)`).
    public var rankLY: Int?

    /// Sales in dollars.
    public var sales: Double { MetricDefinition.divide(salesCents, by: 100) }
    public var lySales: Double { MetricDefinition.divide(lySalesCents, by: 100) }
    /// Average price: sales / items; `nil` without items.
    public var averagePrice: Double? { items == 0 ? nil : MetricDefinition.divide(salesCents, by: items * 100) }
    /// `sales / lySales − 1`; `nil` without LY sales.
    public var pctVsLY: Double? { KPIEngine.change(sales, from: lySales) }

    /// The key that stands for the keys past the top N.
    public static let otherKey = "(other)"
}

extension KPIEngine {
    /// Vendor or category performance over a quarter's days up to its as-of day (`asOf`, else as
    /// the review's), against the calendar's LY when that is the quarter's last day and the same
    /// days a year earlier before it, as the review's running quarter (SPEC section 22).
    public func merch(
        quarter: FiscalQuarter, asOf: CivilDate? = nil, by dimension: MerchDimension, filter: ScopeFilter, top: Int
    ) throws -> MerchReport {
        let day = try reviewAsOf(quarter, requested: asOf, filter: filter)
        let cut = reviewPeriods(quarter, asOf: day).last
        return try merch(
            period: quarter.label, range: cut?.range ?? quarter.range,
            lastYear: cut.map(\.lastYear) ?? quarter.lastYear, by: dimension, filter: filter, top: top)
    }

    /// Vendor or category performance over a to-date period (LY: the calendar's, as kpi's).
    public func merch(
        asOf: CivilDate, period label: String, by dimension: MerchDimension, filter: ScopeFilter, top: Int
    ) throws
        -> MerchReport
    {
        guard let period = calendar.toDatePeriods(asOf).first(where: { $0.label == label }) else {
            throw KPIError("unknown period \"\(label)\" (expected MTD, QTD or YTD)")
        }
        return try merch(
            period: label, range: period.elapsed, lastYear: period.lastYear, by: dimension,
            filter: filter,
            top: top)
    }

    private func merch(
        period: String, range: DateRange, lastYear: DateRange?, by dimension: MerchDimension, filter: ScopeFilter,
        top: Int
    ) throws -> MerchReport {
        // The two ranges are read at once, on two connections of the pool (two cores).
        let warehouse = self.warehouse
        let lastYearRead = try BackgroundTask {
            try lastYear.map { try warehouse.merchMeasures(from: $0.start, through: $0.end, by: dimension) } ?? [:]
        }
        let current = try warehouse.merchMeasures(from: range.start, through: range.end, by: dimension)
        let previous = try lastYearRead.value()
        guard !current.isEmpty else {
            throw KPIError(
                "no merch sales by \(dimension.rawValue) between \(range.start.iso8601) and \(range.end.iso8601)")
        }
        let names = dimension == .vendor ? try warehouse.vendorNames() : [:]
        let currentByStore = Self.byStore(current)
        let previousByStore = Self.byStore(previous)
        let scopes = try Scope.resolve(filter, stores: warehouse.stores(), reader: warehouse.readerScope()).map {
            scope in
            MerchScope(
                scope: scope.id.description, title: scope.title,
                rows: MerchRanking(
                    current: Self.sum(currentByStore, stores: scope.stores),
                    lastYear: Self.sum(previousByStore, stores: scope.stores),
                    names: names
                ).rows(top: top))
        }
        return MerchReport(period: period, dimension: dimension, range: range, lastYear: lastYear, scopes: scopes)
    }

    /// The measures of each store, by key.
    private static func byStore(_ measures: [StoreKey: MerchSums]) -> [String: [String: MerchSums]] {
        var stores: [String: [String: MerchSums]] = [:]
        for (key, value) in measures { stores[key.store, default: [:]][key.key] = value }
        return stores
    }

    /// Per key, the sums over `stores`.
    private static func sum(_ byStore: [String: [String: MerchSums]], stores: [String]) -> [String: MerchSums] {
        if stores.count == 1, let only = byStore[stores[0]] { return only }
        var sums: [String: MerchSums] = [:]
        for store in stores {
            for (key, value) in byStore[store] ?? [:] {
                sums[key, default: MerchSums()].merge(value)
            }
        }
        return sums
    }
}

/// Ranks one scope's keys: exact cents, then the key as text (Unicode scalar order).
struct MerchRanking {
    let current: [String: MerchSums]
    let lastYear: [String: MerchSums]
    /// The name shown per key (vendors' names); a key without one shows itself (categories).
    let names: [String: String]

    static func precedes(_ lhs: (key: String, cents: Int128), _ rhs: (key: String, cents: Int128)) -> Bool {
        if lhs.cents != rhs.cents { return lhs.cents > rhs.cents }
        return lhs.key.unicodeScalars.lexicographicallyPrecedes(rhs.key.unicodeScalars)
    }

    /// The top `top` keys, then `(other)` when keys remain.
    func rows(top: Int) -> [MerchRow] {
        let total = current.values.reduce(Int128(0)) { $0 + $1.salesCents }
        let share = { (cents: Int128) in total == 0 ? nil : MetricDefinition.divide(cents, by: total) }
        let lyRanks = Dictionary(
            lastYear.filter { $0.value.salesCents != 0 }.map { (key: $0.key, cents: $0.value.salesCents) }.sorted(
                by: Self.precedes
            )
            .enumerated().map { ($1.key, $0 + 1) },
            uniquingKeysWith: { first, _ in first })
        let ordered = current.map { (key: $0.key, cents: $0.value.salesCents) }.sorted(by: Self.precedes)
        var rows = ordered.prefix(top).enumerated().map { index, entry -> MerchRow in
            let sums = current[entry.key] ?? MerchSums()
            return MerchRow(
                rank: index + 1, key: entry.key, name: names[entry.key] ?? entry.key, salesCents: sums.salesCents,
                items: sums.items, share: share(sums.salesCents), lySalesCents: lastYear[entry.key]?.salesCents ?? 0,
                rankLY: lyRanks[entry.key])
        }
        let rest = ordered.dropFirst(top)
        if !rest.isEmpty {
            let cents = rest.reduce(Int128(0)) { $0 + $1.cents }
            rows.append(
                MerchRow(
                    rank: nil, key: MerchRow.otherKey, name: MerchRow.otherKey, salesCents: cents,
                    items: rest.reduce(Int128(0)) { $0 + (current[$1.key]?.items ?? 0) }, share: share(cents),
                    lySalesCents: rest.reduce(Int128(0)) { $0 + (lastYear[$1.key]?.salesCents ?? 0) }, rankLY: nil))
        }
        return rows
    }
}
