import Feeds

extension FeedTables {
    /// One store-day of the POS sales audit; transactions and items are NULL when the file does
    /// not report them (SPEC section 26).
    static let salesAudit = FeedTable<SalesAuditRecord>(
        feed: .salesAudit, name: "store_report", period: .day,
        key: [.date("date", \.date), .store(\.store)],
        values: salesColumns(\.figures, countsKnown: false) + [
            .optionalReal("upt", \.figures.upt), .optionalInteger("ads_cents", \.figures.adsCents),
        ],
        measures: .sales)
}

extension SalesAuditRecord: DirectRowBinding {
    /// `FeedTables.salesAudit`'s columns, in its order.
    func bindDeclaredColumns(into values: inout PendingValues) {
        values.add(date)
        values.add(store)
        values.add(figures.totalSalesCents)
        values.add(figures.totalTransactions)
        values.add(figures.totalItems)
        values.add(figures.ccpPctMillionths)
        values.add(figures.gpPctMillionths)
        values.add(figures.upt)
        values.add(figures.adsCents)
    }
}
