/// How feeds read what the spec leaves to configuration.
public struct FeedOptions: Sendable {
    /// Text dates (`D/M/YYYY` only when day-first).
    public var dateText: DateText
    /// The weekday weeks start on: 0 Monday … 6 Sunday (default Monday).
    public var weekStart: Int
    /// How many rows from the top are searched for the header row.
    public var headerSearchRows: Int
    /// Extra header aliases per feed and field, from the config file.
    public var extraAliases: [FeedID: [CanonicalField: [String]]]
    /// Whether an error about a file with no header row quotes the cells of the row it took for
    /// headers (for a person at a terminal), or only says how many columns that row had (for
    /// logs, SPEC section 15: the row may be a customer's).
    public var errorsQuoteCells: Bool
    /// The months goals name (`[calendar] kind`, SPEC section 21).
    public var goalMonths: GoalMonths = .calendar
    /// Which day of its week a weekly sales export's date is (`[feeds.sales-audit] grain =
    /// "week"`, SPEC section 26); `nil` for a daily export.
    public var salesWeekDate: WeekDate?
    /// The data feeds the company has (`[feeds] enabled`, SPEC section 26); a file of another fails.
    public var enabledFeeds: Set<FeedID> = Set(FeedID.dataFeeds)

    /// The feeds the configuration makes weekly beyond the store-week tables' own: the sales
    /// audit when its export is weekly.
    public var weeklyFeeds: Set<FeedID> { salesWeekDate == nil ? [] : [.salesAudit] }

    /// Whether files of `feed` may load: an enabled data feed, or a reference file.
    public func isEnabled(_ feed: FeedID) -> Bool {
        enabledFeeds.contains(feed) || !FeedID.dataFeeds.contains(feed)
    }

    /// Why a file of `feed` may not load, naming `[feeds] enabled`; `nil` when it may.
    public func notEnabledReason(_ feed: FeedID) -> String? {
        guard !isEnabled(feed) else { return nil }
        let enabled = FeedID.dataFeeds.filter(enabledFeeds.contains).map(\.rawValue).joined(separator: ", ")
        return "\(feed.rawValue) is not one of the feeds in [feeds] enabled (\(enabled)): "
            + "add \"\(feed.rawValue)\" there to load its files"
    }

    public init(
        dateText: DateText = DateText(), weekStart: Int = 0, headerSearchRows: Int = 30,
        extraAliases: [FeedID: [CanonicalField: [String]]] = [:], errorsQuoteCells: Bool = true
    ) {
        self.dateText = dateText
        self.weekStart = weekStart
        self.headerSearchRows = headerSearchRows
        self.extraAliases = extraAliases
        self.errorsQuoteCells = errorsQuoteCells
    }

    /// The definition of a feed with the configured extra aliases (`validate()` has refused
    /// conflicting ones when the configuration was read).
    public func definition(_ id: FeedID) -> FeedDefinition {
        (try? checkedDefinition(id)) ?? FeedCatalog.definition(id)
    }

    /// Throws `AliasConflict` when a configured alias would name two fields of one feed.
    public func validate() throws {
        for id in FeedID.allCases { _ = try checkedDefinition(id) }
    }

    private func checkedDefinition(_ id: FeedID) throws -> FeedDefinition {
        var definition = FeedCatalog.definition(id)
        for (field, names) in (extraAliases[id] ?? [:]).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            try definition.addAliases(names, for: field)
        }
        return definition
    }
}

/// The day of its week a weekly export dates a row by.
public enum WeekDate: String, Sendable, CaseIterable {
    case start, end
}
