import KPI

/// What a document's story is about (SPEC section 20): its top scope and its stores ranked.
extension KPIReport {
    /// Whether `scope` is one store (not a region or the company).
    static func isStore(_ scope: ScopeValues) -> Bool {
        scope.scope != "ALL" && !scope.scope.hasPrefix("region:")
    }

    /// How many of `MetricDefinition.all` lead the story: Sales, Avg sale, UPT, CCP %, GP %, Credit apps.
    static let headlineCount = 6

    /// The stores, in report order.
    var stores: [ScopeValues] { scopes.filter(Self.isStore) }

    /// The scope the report is about: the company or the region (the last scope), or its one store.
    var topScope: ScopeValues? {
        guard let last = scopes.last else { return nil }
        return !Self.isStore(last) || scopes.count == 1 ? last : nil
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
