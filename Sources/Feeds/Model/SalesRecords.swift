import CivilCalendar

/// What a POS sales row reports, for a store-day or for an associate's day or month.
public struct SalesFigures: Equatable, Sendable {
    /// Net sales in cents.
    public var totalSalesCents: Int64
    public var totalTransactions: Int
    public var totalItems: Int
    /// Care-plan attachment in millionths of one (452000 for 45.2 %), when given.
    public var ccpPctMillionths: Int64?
    /// Gross-profit margin in millionths of one, when given.
    public var gpPctMillionths: Int64?

    public init(
        totalSalesCents: Int64, totalTransactions: Int, totalItems: Int, ccpPctMillionths: Int64? = nil,
        gpPctMillionths: Int64? = nil
    ) {
        self.totalSalesCents = totalSalesCents
        self.totalTransactions = totalTransactions
        self.totalItems = totalItems
        self.ccpPctMillionths = ccpPctMillionths
        self.gpPctMillionths = gpPctMillionths
    }

    /// Units per transaction, recomputed (never taken from the file); `nil` with no transactions.
    public var upt: Double? { totalTransactions == 0 ? nil : Double(totalItems) / Double(totalTransactions) }
    /// Average sale in dollars, recomputed; `nil` with no transactions.
    public var ads: Double? { totalTransactions == 0 ? nil : Double(totalSalesCents) / Double(totalTransactions * 100) }
    /// Average sale in cents, rounded half away from zero; `nil` with no transactions.
    public var adsCents: Int64? {
        totalTransactions == 0 ? nil : FixedPoint.scaled(Double(totalSalesCents) / Double(totalTransactions), digits: 0)
    }
}

/// One store-day of the POS sales audit.
public struct SalesAuditRecord: Equatable, Sendable {
    public var store: String
    public var date: CivilDate
    public var figures: SalesFigures

    public init(store: String, date: CivilDate, figures: SalesFigures) {
        self.store = store
        self.date = date
        self.figures = figures
    }
}
