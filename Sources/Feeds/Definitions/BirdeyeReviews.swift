extension FeedID {
    public static let birdeyeReviews = FeedID(declaring: "birdeye-reviews")
}

extension FeedCatalog {
    /// Birdeye reviews: one row per review, a weekly total, or weekday counts, per store-week (`EventCounts.swift`).
    static let birdeyeReviews = FeedDefinition(
        id: .birdeyeReviews,
        fields: weekdayAliases.merging([
            .store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases,
            .reviewCount: ["Reviews", "Review Count", "# Reviews"], .rating: ["Rating", "Star Rating", "Stars"],
        ]) { $1 },
        layouts: [
            [.field(.store), .field(.weekStart), .field(.reviewCount)],
            [.field(.store), .field(.weekStart), .anyWeekday()],
            [.field(.store), .field(.date)],
        ],
        signature: ["Rating", "Star Rating", "Stars", "Review Date", "Reviews", "Review Count", "Reviewer"],
        fileNames: ["birdeye", "review"], rows: .weeklyEvents)
}
