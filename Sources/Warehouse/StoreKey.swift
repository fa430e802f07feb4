/// Something the ranked reports sum per store: an associate's id (`employeeMeasures`), or a
/// vendor key or category (`merchMeasures`), at one store.
public struct StoreKey: Hashable, Sendable {
    /// The store's code.
    public var store: String
    /// The associate's id, the vendor key or the category.
    public var key: String

    public init(store: String, key: String) {
        self.store = store
        self.key = key
    }
}
