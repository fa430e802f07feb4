import CivilCalendar

extension FeedID {
    public static let salesAudit = FeedID(declaring: "sales-audit")
}

extension FeedCatalog {
    /// The POS sales audit: one row per store-day (SPEC section 3).
    static let salesAudit = FeedDefinition(
        id: .salesAudit,
        fields: salesFields.merging([
            .store: storeAliases, .date: dateAliases, .upt: ["UPT"],
            .ads: ["ADS", "Avg Sale", "Average Sale", "Avg Ticket"], .open: ["Open", "Is Open", "Opened"],
        ]) { $1 },
        // Transactions and items are read when the file has them (SPEC section 26).
        layouts: [[.field(.store), .field(.date), .field(.totalSales)]],
        fileNames: ["salesaudit", "sales_audit", "sales-audit", "sales audit"], rows: .salesAudit)
}

/// One store-day of the POS sales audit, or one store-week of a weekly export (SPEC section 26).
public struct SalesAuditRecord: Equatable, Sendable {
    public var store: String
    /// The day, or the week's first day for a week.
    public var date: CivilDate
    public var figures: SalesFigures
    /// Whether the row covers the week from `date` (`[feeds.sales-audit] grain = "week"`).
    public var isWeek: Bool
    /// Whether the store was open (the export's `Open` column); `nil` when the file does not say.
    public var isOpen: Bool?

    public init(store: String, date: CivilDate, figures: SalesFigures, isWeek: Bool = false, isOpen: Bool? = nil) {
        self.store = store
        self.date = date
        self.figures = figures
        self.isWeek = isWeek
        self.isOpen = isOpen
    }
}

extension FeedRowMapper {
    /// A store-day of the sales audit, warning when a given UPT or ADS is off the recomputed one
    /// (`checkGiven`).
    @inline(__always) mutating func salesAuditRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.store, { cache.store($0) }),
            let day = fields.required(.date, { cache.date($0) }), let figures = Self.salesFigures(&fields),
            let givenUPT = fields.optional(.upt, ValueNormalizer.number),
            let givenADS = fields.optional(.ads, ValueNormalizer.number),
            let isOpen = fields.optional(.open, ValueNormalizer.flag)
        else { return nil }
        checkGiven("UPT", givenUPT, figures.upt, row: fields.rowNumber)
        checkGiven("ADS", givenADS, figures.ads, row: fields.rowNumber)
        guard let weekDate = reader.options.salesWeekDate else {
            return .salesAudit(SalesAuditRecord(store: code, date: day, figures: figures, isOpen: isOpen))
        }
        // A week's row: its date is the week's first or last day, normalised to the week start (SPEC section 4).
        let first = (weekDate == .end ? day.adding(days: -6) : day).weekStart(on: reader.options.weekStart)
        return .salesAudit(SalesAuditRecord(store: code, date: first, figures: figures, isWeek: true, isOpen: isOpen))
    }
}
