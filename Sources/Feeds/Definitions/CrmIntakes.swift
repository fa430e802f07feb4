extension FeedID {
    public static let crmIntakes = FeedID(declaring: "crm-intakes")
}

extension FeedCatalog {
    /// CRM intakes, one row per intake, counted per store-day (`EventCounts.swift`).
    static let crmIntakes = FeedDefinition(
        id: .crmIntakes, fields: [.store: storeAliases, .date: dateAliases],
        layouts: [[.field(.store), .field(.date)]],
        signature: ["Intake Date", "Company", "Intake"], fileNames: ["crm", "intake"], rows: .dailyEvents)
}
