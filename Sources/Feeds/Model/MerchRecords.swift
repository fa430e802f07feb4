import CivilCalendar

/// A vendor's name as of a day: the name on the vendor's latest row (SPEC section 10).
public struct VendorNameRecord: Equatable, Sendable {
    /// The vendor key: its id when given, else its name.
    public var vendorKey: String
    public var name: String
    /// The day of the row the name was read from, `YYYY-MM-DD`; a month row counts as of day
    /// 31 of its month (`YYYY-MM-31`), after every day row of that month.
    public var asOf: String

    public init(vendorKey: String, name: String, asOf: String) {
        self.vendorKey = vendorKey
        self.name = name
        self.asOf = asOf
    }
}

/// Sales of one vendor and/or category at one store over a day or a month.
public struct MerchSalesRecord: Equatable, Sendable {
    public var store: String
    public var grain: ReportGrain
    /// The vendor id when given, else the vendor name (trimmed, spaces collapsed); `""` without a vendor.
    public var vendorKey: String
    /// The vendor's name as written (or its id when only that is given); `""` without a vendor.
    public var vendorName: String
    /// The category (trimmed, spaces collapsed); `""` without a category.
    public var category: String
    public var totalSalesCents: Int64
    public var totalItems: Int

    public init(
        store: String, grain: ReportGrain, vendorKey: String, vendorName: String, category: String,
        totalSalesCents: Int64,
        totalItems: Int
    ) {
        self.store = store
        self.grain = grain
        self.vendorKey = vendorKey
        self.vendorName = vendorName
        self.category = category
        self.totalSalesCents = totalSalesCents
        self.totalItems = totalItems
    }
}
