import CivilCalendar
import Feeds
import Threads
import Warehouse

/// Which scopes a report covers.
public enum ScopeFilter: Sendable, Equatable {
    /// Every store, every region, and the company.
    case all
    /// Only these stores.
    case stores([String])
    /// The stores of one region, and the region.
    case region(String)
}

/// A request the engine cannot answer (unknown store or region, no data): exit code 2.
public struct KPIError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Computes KPIs against merged goals for stores, regions and the company (SPEC section 7):
/// the warehouse returns exact measures per store and goal month (whole calendar months from the
/// rollups, the rest summed in Swift from the feed tables' rows), scopes sum them, and each
/// metric divides once. With `comparableStores` on, the comp scopes of SPEC section 21 follow.
public struct KPIEngine {
    public let warehouse: Warehouse
    public let calendar: FiscalCalendar
    /// Whether `kpi` and `review` add the comparable-store scopes (`[comp] enabled`).
    public var comparableStores: Bool
    /// The feeds the company has (`[feeds] enabled`, SPEC section 26): metrics of the others
    /// leave every report.
    public var enabledFeeds: Set<FeedID>

    public init(
        warehouse: Warehouse, calendar: FiscalCalendar, comparableStores: Bool = false,
        enabledFeeds: Set<FeedID> = Set(FeedID.dataFeeds)
    ) {
        self.warehouse = warehouse
        self.calendar = calendar
        self.comparableStores = comparableStores
        self.enabledFeeds = enabledFeeds.union([.salesAudit])
    }

    /// The metrics reports show, in report order: those of the enabled feeds.
    public var metrics: [MetricDefinition] { MetricDefinition.all.filter { enabledFeeds.contains($0.feed) } }

    /// Week-, month-, quarter- and year-to-date as of a day, each with its LY; without a day, as
    /// of the latest sales-audit day of the filter's stores (SPEC section 7). A period after a
    /// feed's last data day has no data for its metrics; when no period has any, a `KPIError`.
    public func kpi(asOf requested: CivilDate? = nil, filter: ScopeFilter) throws -> KPIReport {
        guard let asOf = try requested ?? dataThrough(filter, notAfter: nil) else {
            throw KPIError("no data: the selected stores have no sales-audit rows")
        }
        guard let scopes = try boundedScopes(asOf: asOf, filter: filter, periods: kpiPeriods) else {
            throw KPIError("no data as of \(asOf.iso8601): \(try dataThroughText(filter, notAfter: asOf))")
        }
        return KPIReport(
            kind: .kpi(asOf: asOf.iso8601), scopes: scopes, asOf: asOf, isLatestData: requested == nil,
            metrics: metrics)
    }

    /// kpi's periods as of a day: WTD, MTD, QTD and YTD to that day, projected.
    func kpiPeriods(_ asOf: CivilDate) -> [ReportPeriod] {
        calendar.toDatePeriods(asOf).map {
            ReportPeriod(
                label: $0.label, range: $0.elapsed, lastYear: $0.lastYear, full: $0.full, projects: true,
                isCut: false, hasGoal: $0.label != "WTD" && $0.elapsed.end < $0.full.end)
        }
    }

    /// `data through 2025-06-30`, the latest sales-audit day of the filter's stores up to `notAfter`,
    /// or `no sales-audit rows on or before 2025-06-30`.
    private func dataThroughText(_ filter: ScopeFilter, notAfter: CivilDate) throws -> String {
        try dataThrough(filter, notAfter: notAfter).map { "data through \($0.iso8601)" }
            ?? "no sales-audit rows on or before \(notAfter.iso8601)"
    }

    /// The quarterly business review: each month of the quarter and the quarter, with the
    /// whole month or quarter a year earlier as LY (the same-numbered fiscal ones in a retail
    /// calendar), counted up to the as-of date (SPEC section 22).
    ///
    /// The as-of date is `asOf` (inside the quarter), else the earlier of the quarter's last day
    /// and the latest sales-audit day of the filter's stores. Before the quarter's last day the
    /// quarter runs: later months are left out, and the month containing the as-of date and the
    /// quarter are cut there, with kpi's month- and quarter-to-date LY and the targets of the
    /// same days.
    public func review(quarter: FiscalQuarter, asOf requested: CivilDate? = nil, filter: ScopeFilter) throws
        -> KPIReport
    {
        let asOf = try reviewAsOf(quarter, requested: requested, filter: filter)
        guard
            let scopes = try boundedScopes(
                asOf: asOf, filter: filter, periods: { reviewPeriods(quarter, asOf: $0) })
        else {
            throw KPIError("no data for \(quarter.label): \(try dataThroughText(filter, notAfter: asOf))")
        }
        return KPIReport(kind: .review(quarter: quarter.label), scopes: scopes, asOf: asOf, metrics: metrics)
    }

    /// The day a quarter's report runs to (SPEC section 22): `requested`, which must lie in the
    /// quarter, else the earlier of its last day and the filter's latest sales-audit day.
    func reviewAsOf(_ quarter: FiscalQuarter, requested: CivilDate?, filter: ScopeFilter) throws -> CivilDate {
        if let requested {
            guard quarter.range.contains(requested) else {
                throw KPIError(
                    "--as-of \(requested.iso8601) is not in \(quarter.label) "
                        + "(\(quarter.range.start.iso8601) to \(quarter.range.end.iso8601))")
            }
            return requested
        }
        let latest = try dataThrough(filter, notAfter: quarter.range.end)
        if let latest, latest < quarter.range.start {
            throw KPIError("no data for \(quarter.label): data through \(latest.iso8601)")
        }
        return latest ?? quarter.range.end
    }

    /// The review's periods as of `asOf`: whole months and quarter, or, before the quarter's last
    /// day, the months up to `asOf` with the one containing it and the quarter cut there, their
    /// LY the days `kpi` compares month and quarter to date with.
    func reviewPeriods(_ quarter: FiscalQuarter, asOf: CivilDate) -> [ReportPeriod] {
        let whole = { (label: String, range: DateRange, lastYear: DateRange) in
            ReportPeriod(
                label: label, range: range, lastYear: lastYear, full: nil, projects: false, isCut: false,
                hasGoal: false)
        }
        let toDate = calendar.toDatePeriods(asOf)
        guard asOf < quarter.range.end, let monthToDate = toDate.first(where: { $0.label == "MTD" }),
            let quarterToDate = toDate.first(where: { $0.label == "QTD" })
        else {
            return quarter.months.map { whole($0.label, $0.range, $0.lastYear) }
                + [whole(quarter.label, quarter.range, quarter.lastYear)]
        }
        let cut = { (label: String, range: DateRange, toDate: ToDatePeriod) in
            ReportPeriod(
                label: label, range: DateRange(start: range.start, end: asOf), lastYear: toDate.lastYear, full: range,
                projects: false, isCut: true, hasGoal: true)
        }
        return quarter.months.compactMap { month in
            if month.range.end <= asOf { return whole(month.label, month.range, month.lastYear) }
            return month.range.contains(asOf) ? cut(month.label, month.range, monthToDate) : nil
        } + [cut(quarter.label, quarter.range, quarterToDate)]
    }

    /// A period of a report: its days, last year's (`nil`: none), and the whole period when it
    /// is cut before its end or projected (kpi).
    struct ReportPeriod {
        let label: String
        let range: DateRange
        let lastYear: DateRange?
        let full: DateRange?
        /// Whether metrics carry their projection (kpi's periods, SPEC section 11).
        let projects: Bool
        /// Whether the period is a review period cut at its as-of date (`"running": true`).
        let isCut: Bool
        /// Whether additive metrics with a whole-period target say what it takes (SPEC section 22).
        let hasGoal: Bool
    }

    func compute(_ periods: [ReportPeriod], filter: ScopeFilter) throws -> [ScopeValues] {
        let directory = try warehouse.stores()
        let reader = try warehouse.readerScope()
        var scopes = try Scope.resolve(filter, stores: directory, reader: reader)
        let stores = StoreIndex(codes: directory.map(\.code))
        // This year's periods by goal month (their targets need each month's part); last year's
        // only as totals, so cut at the periods' ends alone, and read at the same time on a
        // second connection (two cores), with the first sales days comp needs of stores
        // without an opening date.
        let (warehouse, lastYears) = (self.warehouse, periods.compactMap(\.lastYear))
        let unopened = comparableStores ? Set(directory.filter { $0.opened == nil }.map(\.code)) : []
        let previousRead = try BackgroundTask {
            (
                measures: try SegmentedMeasures(ranges: lastYears, stores: stores, warehouse: warehouse),
                firstSales: try warehouse.firstSalesDates(of: unopened)
            )
        }
        let current = try SegmentedMeasures(
            ranges: periods.map(\.range), cuts: periods.flatMap { calendar.goalMonths(of: $0.range).map(\.part.start) },
            stores: stores, warehouse: warehouse)
        let (previous, firstSales) = try previousRead.value()
        let goalMonth = { (segment: DateRange) in calendar.goalMonths(of: segment).first?.label ?? "" }
        let goalMonths = Set(
            periods.flatMap { [$0.range] + ($0.full.map { [$0] } ?? []) }.flatMap { calendar.goalMonths(of: $0) }.map(
                \.label))
        let targets = TargetBook(goals: try warehouse.goals(months: goalMonths))
        let grids = periods.map { period in
            let parts = calendar.goalMonths(of: period.range)
            return PeriodGrid(
                parts: parts, full: period.full.map(calendar.goalMonths(of:)), stores: stores,
                current: current.measures(of: period.range, parts: parts.map(\.label), label: goalMonth),
                previous: period.lastYear.map(previous.totals(of:)), targets: targets)
        }
        var comparable: ComparableStores?
        if comparableStores {
            comparable = ComparableStores(directory: directory, firstSales: firstSales)
            scopes += Scope.visible(Scope.comparable(filter, scopes: scopes, stores: directory), to: reader)
        }
        // Per period, whether each store position is comparable (decided once for all comp scopes).
        let comparablePositions = comparable.map { comparable in
            periods.map { period in
                stores.codes.map { comparable.isComparable($0, over: period.range, lastYear: period.lastYear) }
            }
        }
        let lastDay = periods.map(\.range.end).max()
        return scopes.map { scope in
            let positions = stores.indices(of: scope.stores)
            return ScopeValues(
                scope: scope.id.description, title: scope.title, isClosed: lastDay.map(scope.isClosed(by:)) ?? false,
                periods: zip(periods, grids).enumerated().map { index, element in
                    let (period, grid) = element
                    guard scope.isComparable, let comparablePositions else {
                        return values(period, grid, members: positions)
                    }
                    let members = positions.filter { comparablePositions[index][$0] }
                    var values = values(period, grid, members: members, withTargets: false)
                    values.comparableStores = members.count
                    return values
                })
        }
    }

    /// One period's metrics over `members` (store positions): actual, LY and, unless
    /// `withTargets` is off (comp scopes), targets and projections.
    private func values(_ period: ReportPeriod, _ grid: PeriodGrid, members: [Int], withTargets: Bool = true)
        -> PeriodValues
    {
        let actual = grid.actual(members)
        let ly = grid.lastYearActual(members)
        return PeriodValues(
            label: period.label, range: period.range, lastYear: period.lastYear,
            metrics: MetricDefinition.all.enumerated().map { index, metric in
                var value = Self.value(
                    of: metric, actual: actual, ly: ly, target: withTargets ? grid.target(metric: index, members) : nil)
                guard withTargets, let full = period.full, metric.isAdditive else { return value }
                let fullTarget = grid.fullTarget(metric: index, members)
                let projection = value.actual.map {
                    Projection(
                        actual: $0, elapsedDays: period.range.days, fullDays: full.days, elapsedTarget: value.target,
                        fullTarget: fullTarget)
                }
                if period.projects { value.projection = projection }
                if period.hasGoal, let fullTarget {
                    value.full = FullPeriodGoal(
                        end: full.end, target: fullTarget, actual: value.actual, projection: projection,
                        elapsedDays: period.range.days, remainingDays: full.days - period.range.days)
                }
                return value
            },
            whole: period.isCut ? period.full : nil)
    }

    static func value(
        of metric: MetricDefinition, actual measures: MeasureSums, ly lastYear: MeasureSums?, target: Double?
    )
        -> MetricValue
    {
        let actual = metric.value(measures)
        let ly = lastYear.flatMap(metric.value)
        return MetricValue(
            key: metric.key, actual: actual, target: target, pctToTarget: change(actual, from: target), ly: ly,
            pctVsLY: change(actual, from: ly))
    }

    /// `actual / base − 1`; no value when either is missing or the base is 0.
    static func change(_ actual: Double?, from base: Double?) -> Double? {
        guard let actual, let base, base != 0 else { return nil }
        return actual / base - 1
    }

}

/// A set of stores reported together.
struct Scope {
    let id: ScopeID
    let title: String
    let stores: [String]
    /// A comp scope (SPEC section 21): its metrics are over the stores comparable in each period.
    var isComparable = false
    /// A store scope's directory entry, which says whether and when it closed.
    var store: StoreRecord?

    /// Whether the scope is a store closed by `end` (status `closed`, or a closing day on or before it).
    func isClosed(by end: CivilDate) -> Bool {
        guard let store else { return false }
        return store.status == "closed" || (store.closed.map { $0 <= end } ?? false)
    }

    /// Whether the scope is one store (not a region, the company or a comp scope).
    var isStore: Bool { id.isStore }

    /// The comp scopes after the regular `scopes` of `filter`, one for each of its totals: for
    /// the company, `comp:region:NAME` for each region by name, then `comp:ALL`; for a region,
    /// that region's; for named stores, `comp:ALL` over them, titled with their codes.
    static func comparable(_ filter: ScopeFilter, scopes: [Scope], stores directory: [StoreRecord]) -> [Scope] {
        let included = Set(scopes.filter(\.isStore).flatMap(\.stores))
        let stores = directory.filter { included.contains($0.code) }.sorted { $0.code < $1.code }
        switch filter {
        case .all:
            let regions = Dictionary(grouping: stores.filter { $0.region != nil }) { $0.region ?? "" }
            return regions.keys.sorted().map { name in
                regionComparable(name, stores: (regions[name] ?? []).map(\.code))
            } + [
                Scope(
                    id: .comparable(.all), title: "All comparable stores", stores: stores.map(\.code),
                    isComparable: true)
            ]
        case .region:
            return scopes.compactMap { scope in
                guard case .region(let name) = scope.id else { return nil }
                return regionComparable(name, stores: scope.stores)
            }
        case .stores:
            let codes = stores.map(\.code)
            return [
                Scope(
                    id: .comparable(.all), title: "Comparable stores of \(codes.joined(separator: ", "))",
                    stores: codes,
                    isComparable: true)
            ]
        }
    }

    /// A region's comp scope over `stores`.
    private static func regionComparable(_ name: String, stores: [String]) -> Scope {
        Scope(
            id: .comparable(.region(name)), title: "Region \(name), comparable stores", stores: stores,
            isComparable: true)
    }

    /// The scopes of `filter` a reader scoped by `ddkpi access` may see (SPEC section 23): its
    /// stores (the warehouse shows it no other), a region reader its region too, and no
    /// aggregate beyond them; `--region` is refused to a reader of stores.
    static func resolve(_ filter: ScopeFilter, stores: [StoreRecord], reader: AccessScope?) throws -> [Scope] {
        if case .region = filter, case .stores = reader {
            throw KPIError("this role reads \(reader?.description ?? "") only: --region is outside its scope")
        }
        return visible(try resolve(filter, stores: stores), to: reader)
    }

    /// `scopes` without the aggregates `reader` cannot fully see: `All stores` and the comp
    /// scopes over them, and any region but a region reader's own.
    static func visible(_ scopes: [Scope], to reader: AccessScope?) -> [Scope] {
        guard let reader, reader != .all else { return scopes }
        let region: ScopeID? = if case .region(let name) = reader { .region(name) } else { nil }
        return scopes.filter { scope in scope.isStore || (region != nil && scope.id.total == region) }
    }

    /// Stores by code, then regions by name, then `ALL` (SPEC section 7).
    static func resolve(_ filter: ScopeFilter, stores: [StoreRecord]) throws -> [Scope] {
        func storeScope(_ store: StoreRecord) -> Scope {
            Scope(id: .store(store.code), title: store.title, stores: [store.code], store: store)
        }
        let regions = Dictionary(grouping: stores.filter { $0.region != nil }) { $0.region ?? "" }
        func regionScope(_ name: String) -> Scope {
            Scope(id: .region(name), title: "Region \(name)", stores: (regions[name] ?? []).map(\.code).sorted())
        }
        switch filter {
        case .all:
            return stores.sorted { $0.code < $1.code }.map(storeScope) + regions.keys.sorted().map(regionScope)
                + [Scope(id: .all, title: "All stores", stores: stores.map(\.code).sorted())]
        case .stores(let codes):
            return try codes.map { code in
                let normalized = StoreDirectory.leadingCode(code) ?? code
                guard let store = stores.first(where: { $0.code == normalized }) else {
                    throw KPIError(
                        "unknown store \"\(code)\"; known stores: \(stores.map(\.code).joined(separator: ", "))")
                }
                return storeScope(store)
            }
        case .region(let name):
            guard let match = regions.keys.first(where: { $0.lowercased() == name.lowercased() }) else {
                guard !regions.isEmpty else {
                    throw KPIError("unknown region \"\(name)\": the store directory gives no store a region")
                }
                throw KPIError(
                    "unknown region \"\(name)\"; known regions: \(regions.keys.sorted().joined(separator: ", "))")
            }
            return (regions[match] ?? []).sorted { $0.code < $1.code }.map(storeScope) + [regionScope(match)]
        }
    }
}
