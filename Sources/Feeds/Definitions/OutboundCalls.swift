extension FeedID {
    public static let outboundCalls = FeedID(declaring: "outbound-calls")
}

extension FeedCatalog {
    /// Outbound calls: one row per call or weekday counts, per store-week (`EventCounts.swift`).
    static let outboundCalls = FeedDefinition(
        id: .outboundCalls,
        fields: weekdayAliases.merging([.store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases]) { $1 },
        layouts: [[.field(.store), .field(.weekStart), .anyWeekday()], [.field(.store), .field(.date)]],
        signature: ["Call Date", "Call Time", "Mon", "Monday", "Duration", "Call Duration", "Dialed Number"],
        fileNames: ["call"], rows: .weeklyEvents)
}
