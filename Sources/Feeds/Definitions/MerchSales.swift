import CivilCalendar

extension FeedID {
    public static let merchSales = FeedID(declaring: "merch-sales")
}

extension FeedCatalog {
    /// Sales by vendor and/or category per store and day or month (SPEC section 10).
    static let merchSales = FeedDefinition(
        id: .merchSales,
        fields: [
            .store: storeAliases, .date: dateAliases, .period: periodAliases, .vendor: vendorAliases,
            .vendorId: vendorIdAliases, .category: categoryAliases, .totalSales: salesFields[.totalSales] ?? [],
            .totalItems: salesFields[.totalItems] ?? [],
        ],
        layouts: [
            [
                .field(.store), .anyOf([.date, .period]), .anyOf([.vendor, .vendorId, .category]), .field(.totalSales),
                .field(.totalItems),
            ]
        ],
        signature: vendorAliases + vendorIdAliases + categoryAliases, fileNames: ["vendor", "category", "merch"],
        rows: .merchSales)
}

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

extension FeedRowMapper {
    /// A vendor and/or category day or month at a store.
    mutating func merchSalesRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.store, { cache.store($0) }), let grain = self.grain(&fields),
            let vendorName = fields.optional(.vendor, ValueNormalizer.key),
            let vendorId = fields.optional(.vendorId, ValueNormalizer.identifier),
            let category = fields.optional(.category, ValueNormalizer.key),
            let sales = fields.required(.totalSales, ValueNormalizer.money),
            let items = fields.required(.totalItems, ValueNormalizer.count)
        else { return nil }
        guard vendorName != nil || vendorId != nil || category != nil else {
            fields.failRow("has neither a vendor nor a category")
            return nil
        }
        let record = MerchSalesRecord(
            store: code, grain: grain, vendorKey: vendorId ?? vendorName ?? "",
            vendorName: vendorName ?? vendorId ?? "",
            category: category ?? "", totalSalesCents: sales, totalItems: items)
        if !record.vendorKey.isEmpty {
            let asOf: String
            switch grain {
            case .day(let date): asOf = date.iso8601
            case .month: asOf = grain.key + "-31"
            }
            // A later row wins a tie, as for associates.
            if (vendorNames[record.vendorKey]?.asOf ?? "") <= asOf {
                vendorNames[record.vendorKey] = (asOf, record.vendorName, fields.rowNumber)
            }
        }
        return .merchSales(record)
    }
}
