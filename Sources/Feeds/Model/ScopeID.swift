/// A report scope's id as reports, JSON and manifests print it (SPEC section 7): a store's code,
/// `region:NAME`, `ALL`, or a comp scope `comp:…` over a region or the company (section 21).
public enum ScopeID: Hashable, Sendable, CustomStringConvertible {
    case store(String)
    case region(String)
    case all
    /// The comparable stores of a region or of the company.
    indirect case comparable(ScopeID)

    /// The id `text` prints: `ALL`, `region:` and `comp:` prefixes, else a store's code.
    public init(_ text: String) {
        if text == "ALL" {
            self = .all
        } else if text.hasPrefix("comp:") {
            self = .comparable(ScopeID(String(text.dropFirst("comp:".count))))
        } else if text.hasPrefix("region:") {
            self = .region(String(text.dropFirst("region:".count)))
        } else {
            self = .store(text)
        }
    }

    /// `08`, `region:East`, `ALL`, `comp:region:East`, `comp:ALL`.
    public var description: String {
        switch self {
        case .store(let code): return code
        case .region(let name): return "region:" + name
        case .all: return "ALL"
        case .comparable(let total): return "comp:" + total.description
        }
    }

    /// Whether the scope is one store.
    public var isStore: Bool {
        if case .store = self { return true }
        return false
    }

    /// Whether the scope is a comp scope.
    public var isComparable: Bool {
        if case .comparable = self { return true }
        return false
    }

    /// The regular scope a comp scope is over (itself for the others).
    public var total: ScopeID {
        if case .comparable(let total) = self { return total }
        return self
    }
}
