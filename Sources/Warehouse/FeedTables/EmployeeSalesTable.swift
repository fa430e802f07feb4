import Feeds

extension FeedTables {
    /// An associate's sales at a store over a day or a month.
    static let employeeSales = FeedTable<EmployeeSalesRecord>(
        feed: .employeePerformance, name: "employee_report", period: .dayOrMonth,
        key: [.grainKey("date", \.grain), .store(\.store), .text(EmployeeSalesColumns.employeeId, \.employeeId)],
        values: salesColumns(\.figures, countsKnown: true),
        untracked: [grainColumn(\.grain)])
}

/// The associates' table's own column, which its readers name.
enum EmployeeSalesColumns {
    static let employeeId = "employee_id"
}
