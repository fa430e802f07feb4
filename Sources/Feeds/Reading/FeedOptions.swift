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

    public init(
        dateText: DateText = DateText(), weekStart: Int = 0, headerSearchRows: Int = 30,
        extraAliases: [FeedID: [CanonicalField: [String]]] = [:]
    ) {
        self.dateText = dateText
        self.weekStart = weekStart
        self.headerSearchRows = headerSearchRows
        self.extraAliases = extraAliases
    }

    /// The definition of a feed with the configured extra aliases.
    public func definition(_ id: FeedID) -> FeedDefinition {
        var definition = FeedCatalog.definition(id)
        for (field, names) in extraAliases[id] ?? [:] { definition.addAliases(names, for: field) }
        return definition
    }
}
