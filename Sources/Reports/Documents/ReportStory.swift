import Feeds
import KPI

/// What a document's story is about (SPEC section 20): its top scope and its stores ranked.
extension KPIReport {
    /// Whether `scope` is one store (not a region, the company or a comp scope).
    static func isStore(_ scope: ScopeValues) -> Bool { ScopeID(scope.scope).isStore }

    /// Whether `scope` is a comp scope (`comp:ALL`, `comp:region:NAME`, SPEC section 21).
    static func isComparable(_ scope: ScopeValues) -> Bool { ScopeID(scope.scope).isComparable }

    /// How many of `metrics` lead the story: Sales, Avg sale, UPT, CCP %, GP %, Credit apps.
    static let headlineCount = 6

    /// `as of 2025-06-30`, with `, the latest data` when kpi's as-of day was not asked for (SPEC section 7).
    func asOfHeading(_ asOf: String) -> String { "as of \(asOf)" + (isLatestData ? ", the latest data" : "") }

    /// The stores, in report order.
    var stores: [ScopeValues] { scopes.filter(Self.isStore) }

    /// The regular scopes: stores, regions and the company, without the comp scopes.
    var regularScopes: [ScopeValues] { scopes.filter { !Self.isComparable($0) } }

    /// The comp scopes, in report order.
    var comparableScopes: [ScopeValues] { scopes.filter(Self.isComparable) }

    /// The scope the report is about: the company or the region (the last regular scope), or its
    /// one store.
    var topScope: ScopeValues? {
        let regular = regularScopes
        guard let last = regular.last else { return nil }
        return !Self.isStore(last) || regular.count == 1 ? last : nil
    }

    /// The comp scope over the top scope's stores (`comp:ALL` for `ALL`, `comp:region:NAME` for a
    /// region), when the report has comp scopes.
    var topComparableScope: ScopeValues? {
        guard let top = topScope, !Self.isStore(top) else { return nil }
        let id = ScopeID.comparable(ScopeID(top.scope)).description
        return scopes.first { $0.scope == id }
    }

    /// The stores by the last period's sales % to target, best first; those without one last,
    /// in report order.
    var storesByPctToTarget: [ScopeValues] {
        stores.enumerated().sorted { left, right in
            let one = left.element.periods.last?.metrics.first?.pctToTarget
            let two = right.element.periods.last?.metrics.first?.pctToTarget
            switch (one, two) {
            case (let one?, let two?) where one != two: return one > two
            case (.some, nil): return true
            case (nil, .some): return false
            default: return left.offset < right.offset
            }
        }.map(\.element)
    }

    /// The stores furthest behind their sales target in the last period, worst first, at most
    /// `limit`; none for a report of one store.
    func storesBehindTarget(limit: Int = 3) -> [(label: String, pctToTarget: Double)] {
        guard stores.count > 1 else { return [] }
        return Self.behind(
            stores.map { (Self.rankingLabel($0), $0.periods.last?.metrics.first?.pctToTarget) }, limit: limit)
    }

    /// A store as a ranking names it: its title, tagged `closed` when the directory says so (SPEC section 20).
    static func rankingLabel(_ store: ScopeValues) -> String {
        store.isClosed ? store.title + " · closed" : store.title
    }

    /// The top scope's headline metrics furthest behind target in the last period, worst first.
    func metricsBehindTarget(limit: Int = 3) -> [(label: String, pctToTarget: Double)] {
        guard let period = topScope?.periods.last else { return [] }
        let metrics = zip(metrics, period.metrics).prefix(Self.headlineCount)
        return Self.behind(metrics.map { ($0.label, $1.pctToTarget) }, limit: limit)
    }

    /// The candidates below target, worst first (ties in their given order), at most `limit`.
    private static func behind(
        _ candidates: [(label: String, pctToTarget: Double?)], limit: Int
    ) -> [(label: String, pctToTarget: Double)] {
        let misses = candidates.enumerated().compactMap { offset, candidate in
            candidate.pctToTarget.flatMap { $0 < 0 ? (offset, candidate.label, $0) : nil }
        }
        return misses.sorted { ($0.2, $0.0) < ($1.2, $1.0) }.prefix(limit).map { (label: $0.1, pctToTarget: $0.2) }
    }
}
