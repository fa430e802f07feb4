import CivilCalendar

/// What a feed file yields for the warehouse.
public enum FeedRecord: Equatable, Sendable {
    case salesAudit(SalesAuditRecord)
    case creditApplications(DailyCountRecord)
    case crmIntakes(DailyCountRecord)
    case birdeyeReviews(WeeklyCountRecord)
    case outboundCalls(WeeklyCountRecord)
    case employeeSales(EmployeeSalesRecord)
    case employeeName(EmployeeNameRecord)
    case merchSales(MerchSalesRecord)
    case vendorName(VendorNameRecord)
    case store(StoreRecord)
    case goal(GoalRecord)
}
