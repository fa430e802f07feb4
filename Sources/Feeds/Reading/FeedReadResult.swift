/// What reading one feed file found, before anything is stored.
public struct FeedReadResult: Sendable {
    public var feed: FeedID
    public var sheet: String
    /// The header row, 1-based.
    public var headerRow: Int
    /// Data rows after the header.
    public var read = 0
    /// Blank, repeated-header and total rows.
    public var skipped = 0
    /// Rows that became rejects.
    public var rejected = 0
    /// The rejects, the first `FeedFileReader.keptRejects` of them.
    public var rejects: [Reject] = []
    /// Non-fatal findings (a given UPT/ADS that disagrees with the recomputed one, reader warnings).
    public var warnings: [String] = []

    /// A result with nothing read yet.
    public init(feed: FeedID, sheet: String, headerRow: Int) {
        self.feed = feed
        self.sheet = sheet
        self.headerRow = headerRow
    }

    /// Rejected rows as a share of the rows that were neither skipped nor empty; 0 with none.
    public var rejectRate: Double {
        let considered = read - skipped
        return considered > 0 ? Double(rejected) / Double(considered) : 0
    }
}
