import CivilCalendar

/// What a POS sales row reports, for a store-day or for an associate's day or month.
public struct SalesFigures: Equatable, Sendable {
    /// Net sales in cents.
    public var totalSalesCents: Int64
    /// Transactions; `nil` when the file has no transactions column (unknown, never 0).
    public var totalTransactions: Int?
    /// Items; `nil` when the file has no items column (unknown, never 0).
    public var totalItems: Int?
    /// Care-plan attachment in millionths of one (452000 for 45.2 %), when given.
    public var ccpPctMillionths: Int64?
    /// Gross-profit margin in millionths of one, when given.
    public var gpPctMillionths: Int64?

    public init(
        totalSalesCents: Int64, totalTransactions: Int?, totalItems: Int?, ccpPctMillionths: Int64? = nil,
        gpPctMillionths: Int64? = nil
    ) {
        self.totalSalesCents = totalSalesCents
        self.totalTransactions = totalTransactions
        self.totalItems = totalItems
        self.ccpPctMillionths = ccpPctMillionths
        self.gpPctMillionths = gpPctMillionths
    }

    /// Units per transaction, recomputed (never taken from the file); `nil` with no or unknown
    /// transactions, or unknown items.
    public var upt: Double? {
        guard let transactions = totalTransactions, transactions != 0, let items = totalItems else { return nil }
        return Double(items) / Double(transactions)
    }
    /// Average sale in dollars, recomputed; `nil` with no or unknown transactions.
    public var ads: Double? {
        guard let transactions = totalTransactions, transactions != 0 else { return nil }
        return Double(totalSalesCents) / Double(transactions * 100)
    }
    /// Average sale in cents, rounded half away from zero; `nil` with no or unknown transactions.
    public var adsCents: Int64? {
        guard let transactions = totalTransactions, transactions != 0 else { return nil }
        return FixedPoint.scaled(Double(totalSalesCents) / Double(transactions), digits: 0)
    }
}
