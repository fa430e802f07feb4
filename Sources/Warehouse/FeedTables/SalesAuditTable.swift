import Feeds

extension FeedTables {
    /// One store-day of the POS sales audit, or a store-week of a weekly export (`grain` `week`,
    /// keyed and credited by its week start, SPEC section 26); transactions and items are NULL
    /// when the file does not report them, and `closed` says whether the export's `Open` column
    /// marked the store closed (NULL without one).
    static let salesAudit = FeedTable<SalesAuditRecord>(
        feed: .salesAudit, name: "store_report", period: .day,
        key: [.date("date", \.date), .store(\.store)],
        values: salesColumns(\.figures, countsKnown: false) + [
            .optionalReal("upt", \.figures.upt), .optionalInteger("ads_cents", \.figures.adsCents),
            .text(SalesAuditColumns.grain) { SalesAuditColumns.grain(of: $0) },
            .optionalInteger(SalesAuditColumns.closed) { SalesAuditColumns.closed(of: $0) },
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
        values.add(SalesAuditColumns.grain(of: self))
        values.add(SalesAuditColumns.closed(of: self))
    }
}

/// The sales audit's own columns beside its figures: `grain` (`day`, or `week` for a weekly
/// export's store-week) and `closed`.
enum SalesAuditColumns {
    static let grain = FeedTables.grainColumnName
    static let day = "day"
    static let week = "week"
    static let closed = "closed"

    /// The grain of a record.
    @inline(__always) static func grain(of record: SalesAuditRecord) -> String { record.isWeek ? week : day }

    /// The `closed` value of a record: 1 closed, 0 open, `nil` when its file did not say.
    @inline(__always) static func closed(of record: SalesAuditRecord) -> Int64? {
        record.isOpen.map { $0 ? 0 : 1 }
    }
}
