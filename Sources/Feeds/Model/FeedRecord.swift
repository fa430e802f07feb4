import CivilCalendar

/// What a feed file yields for the warehouse: a record of each shape (`FeedRows`); an event
/// count belongs to the file's feed, whichever it is.
public enum FeedRecord: Equatable, Sendable {
    case salesAudit(SalesAuditRecord)
    case dailyCount(DailyCountRecord)
    case weeklyCount(WeeklyCountRecord)
    case employeeSales(EmployeeSalesRecord)
    case employeeName(EmployeeNameRecord)
    case merchSales(MerchSalesRecord)
    case vendorName(VendorNameRecord)
    case store(StoreRecord)
    case goal(GoalRecord)
}
