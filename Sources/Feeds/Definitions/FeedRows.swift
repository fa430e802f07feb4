/// How a feed's rows become records: the mapping its definition names, shared by every feed
/// whose rows have that shape (a new feed of events per day needs no mapping of its own).
public enum FeedRows: Sendable {
    /// A store-day (or store-week) of sales: `SalesAuditRecord`.
    case salesAudit
    /// An associate's sales per store and day or month: `EmployeeSalesRecord`, and the names.
    case associateSales
    /// Sales per vendor or category, store and day or month: `MerchSalesRecord`, and the names.
    case merchSales
    /// One event a row, counted per store-day: `DailyCountRecord`.
    case dailyEvents
    /// One event a row, a weekly total or weekday counts, per store-week: `WeeklyCountRecord`.
    case weeklyEvents
    /// The store directory: `StoreRecord`.
    case storeDirectory
    /// Targets: `GoalRecord`.
    case goals

    /// Whether each row is one event, counted per store and day or week: such a feed has no
    /// rows on a quiet day.
    public var countsEvents: Bool { self == .dailyEvents || self == .weeklyEvents }

    /// Whether the rows are a reference file's (the directory, targets) rather than a nightly feed's.
    public var isReference: Bool { self == .storeDirectory || self == .goals }
}
