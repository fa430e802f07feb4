import CivilCalendar

extension KPIEngine {
    /// The stores a filter covers, by code (SPEC section 19: a pack's stores).
    public func storeCodes(_ filter: ScopeFilter) throws -> [String] {
        try Scope.resolve(filter, stores: warehouse.stores(), reader: warehouse.readerScope()).filter(\.isStore)
            .flatMap(\.stores)
    }

    /// The last day the filter's stores have sales-audit data, no later than `notAfter` (any, when
    /// `nil`): what a document's "data through D" says (SPEC section 20), and the default as-of
    /// date (SPEC section 7). `nil` when they have none.
    public func dataThrough(_ filter: ScopeFilter, notAfter: CivilDate?) throws -> CivilDate? {
        try warehouse.latestSalesDate(stores: filter == .all ? nil : try storeCodes(filter), notAfter: notAfter)
    }
}
