import Feeds

extension FeedTables {
    /// One store-day of the POS sales audit, or a store-week of a weekly export (`grain` `week`,
    /// keyed and credited by its week start, SPEC section 26); transactions and items are NULL
    /// when the file does not report them.
    static let salesAudit = FeedTable<SalesAuditRecord>(
        feed: .salesAudit, name: "store_report", period: .day,
        key: [.date("date", \.date), .store(\.store)],
        values: salesColumns(\.figures, countsKnown: false) + [
            .optionalReal("upt", \.figures.upt), .optionalInteger("ads_cents", \.figures.adsCents),
            .text(SalesAuditGrain.column) { SalesAuditGrain.of($0) },
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
        values.add(SalesAuditGrain.of(self))
    }
}

/// The sales audit's `grain` column: `day`, or `week` for a weekly export's store-week.
enum SalesAuditGrain {
    static let column = "grain"
    static let day = "day"
    static let week = "week"

    /// The grain of a record.
    @inline(__always) static func of(_ record: SalesAuditRecord) -> String { record.isWeek ? week : day }
}
