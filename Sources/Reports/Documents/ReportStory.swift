import KPI

/// What a document's story is about (SPEC section 20): its top scope and its stores ranked.
extension KPIReport {
    /// Whether `scope` is one store (not a region, the company or a comp scope).
    static func isStore(_ scope: ScopeValues) -> Bool {
        scope.scope != "ALL" && !scope.scope.hasPrefix("region:") && !isComparable(scope)
    }

    /// Whether `scope` is a comp scope (`comp:ALL`, `comp:region:NAME`, SPEC section 21).
    static func isComparable(_ scope: ScopeValues) -> Bool { scope.scope.hasPrefix("comp:") }

    /// How many of `MetricDefinition.all` lead the story: Sales, Avg sale, UPT, CCP %, GP %, Credit apps.
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
        let id = "comp:" + top.scope
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
}
