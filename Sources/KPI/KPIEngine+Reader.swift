import Warehouse

extension KPIEngine {
    /// Throws when `filter` asks for stores beyond those of the role the warehouse is read as
    /// (SPEC section 23: a pack of all stores, another region, or a hidden store exits 2).
    public func requireReadable(_ filter: ScopeFilter) throws {
        guard let reader = try warehouse.readerScope(), reader != .all else { return }
        let outside = KPIError("this role reads \(reader.description) only: \(filter.description) is outside its scope")
        switch (filter, reader) {
        case (.all, _): throw outside
        case (.region(let name), .region(let own)) where name.lowercased() == own.lowercased(): return
        case (.region, _): throw outside
        case (.stores(let codes), .stores(let own)) where Set(codes).isSubset(of: own): return
        case (.stores(let codes), .region):
            let visible = Set(try warehouse.stores().map(\.code))
            guard codes.allSatisfy(visible.contains) else { throw outside }
        case (.stores, _): throw outside
        }
    }
}

extension ScopeFilter {
    /// How a request names it: `all stores`, `region East`, `stores 08, 10`.
    public var description: String {
        switch self {
        case .all: return "all stores"
        case .region(let name): return "region \(name)"
        case .stores(let codes): return "stores " + codes.joined(separator: ", ")
        }
    }
}
