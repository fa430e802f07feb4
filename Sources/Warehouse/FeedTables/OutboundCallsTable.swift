extension FeedTables {
    /// Outbound calls per store-week.
    static let outboundCalls = weeklyCountTable(
        .outboundCalls, "outbound_call_report", total: "total_calls", measure: .calls)
}
