import Feeds

/// A file ready to be read: its feed and the reading itself (records go to `emit`, which
/// `read` calls on the calling thread, the database's).
public struct PreparedFeed {
    public var feed: FeedID
    /// Reads the file, handing each record with its source row (the 1-based sheet row or CSV
    /// record) to `emit`.
    public var read: (_ emit: (FeedRecord, _ row: Int) throws -> Void) throws -> FeedReadResult

    public init(
        feed: FeedID, read: @escaping (_ emit: (FeedRecord, _ row: Int) throws -> Void) throws -> FeedReadResult
    ) {
        self.feed = feed
        self.read = read
    }
}
