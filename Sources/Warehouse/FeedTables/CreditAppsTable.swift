extension FeedTables {
    /// Credit applications per store-day.
    static let creditApplications = dailyCountTable(
        .creditApps, "credit_report", count: "total_applications", measure: .applications)
}
