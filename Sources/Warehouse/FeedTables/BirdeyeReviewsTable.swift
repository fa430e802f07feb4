extension FeedTables {
    /// Birdeye reviews per store-week.
    static let birdeyeReviews = weeklyCountTable(
        .birdeyeReviews, "birdeye_report", total: "review_count", measure: .reviews)
}
