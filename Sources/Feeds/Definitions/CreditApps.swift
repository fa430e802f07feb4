extension FeedID {
    public static let creditApps = FeedID(declaring: "credit-apps")
}

extension FeedCatalog {
    /// Credit applications, one row per application, counted per store-day (`EventCounts.swift`).
    static let creditApps = FeedDefinition(
        id: .creditApps, fields: [.store: storeAliases, .date: dateAliases],
        layouts: [[.field(.store), .field(.date)]],
        signature: ["Application Date", "App Date", "Applicant", "Applicant Name", "Credit Limit"],
        fileNames: ["credit"], rows: .dailyEvents)
}
