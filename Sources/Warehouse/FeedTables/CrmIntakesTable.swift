extension FeedTables {
    /// CRM intakes per store-day.
    static let crmIntakes = dailyCountTable(.crmIntakes, "crm_intake_report", count: "total_intakes", measure: .intakes)
}
