import Feeds

extension FeedTables {
    /// A vendor's and/or category's sales at a store over a day or a month.
    static let merchSales = FeedTable<MerchSalesRecord>(
        feed: .merchSales, name: "merch_report", period: .dayOrMonth,
        key: [
            .grainKey("date", \.grain), .store(\.store), .text(MerchSalesColumns.vendorKey, \.vendorKey),
            .text(MerchSalesColumns.category, \.category),
        ],
        values: [
            .text("vendor_name", \.vendorName), .integer(MerchSalesColumns.sales, \.totalSalesCents),
            .integer(MerchSalesColumns.items) { Int64($0.totalItems) },
        ],
        untracked: [grainColumn(\.grain)])
}

/// The merch table's columns its readers name.
enum MerchSalesColumns {
    static let vendorKey = "vendor_key"
    static let category = "category"
    static let sales = SalesFigureColumns.cents
    static let items = SalesFigureColumns.items
}
