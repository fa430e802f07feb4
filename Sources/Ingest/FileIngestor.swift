import Feeds
import SheetStream
import Warehouse

/// Wires one file to the warehouse, the same way for the command line, the benchmarks and the
/// tests: opens it, locates its feed (the one given, else by its name, else by its headers) and
/// its header row, and reads it into the warehouse in one transaction.
public struct FileIngestor {
    public let warehouse: Warehouse
    /// Aliases, week start and date order for reading.
    public var feedOptions: FeedOptions
    /// File-name tokens that name a feed, beyond the built-in ones.
    public var extraNamePatterns: [(token: String, feed: FeedID)]
    /// The feed every file is read as, instead of detecting it.
    public var explicitFeed: FeedID?
    public var options: IngestOptions

    public init(
        warehouse: Warehouse, feedOptions: FeedOptions = FeedOptions(),
        extraNamePatterns: [(token: String, feed: FeedID)] = [],
        explicitFeed: FeedID? = nil, options: IngestOptions = IngestOptions()
    ) {
        self.warehouse = warehouse
        self.feedOptions = feedOptions
        self.extraNamePatterns = extraNamePatterns
        self.explicitFeed = explicitFeed
        self.options = options
    }

    /// Ingests the file at `path`; `progress` (when given) hears the rows read so far (for a
    /// CSV on the reading thread: see `FeedFileReader.read`), and `finished` is called on this
    /// thread once reading ends either way.
    ///
    /// Detection and the header search look at the same first rows, read once (`FirstRows`);
    /// the header is looked for when the read begins, inside the transaction, so that a file
    /// without one fails where it always did, with its feed known.
    public func ingest(_ path: String, progress: ((Int) -> Void)? = nil, finished: (() -> Void)? = nil) -> IngestOutcome
    {
        warehouse.ingest(path: path, options: options) {
            let file = try SpreadsheetFile.open(path: path)
            let firstRows = FirstRows(of: file, searchRows: feedOptions.headerSearchRows)
            let feed = try FeedDetector(options: feedOptions, extraNamePatterns: extraNamePatterns).detect(
                firstRows, explicit: explicitFeed)
            if let reason = feedOptions.notEnabledReason(feed) {
                throw FeedError(file: FeedFileReader.fileName(path), message: reason)
            }
            let reader = FeedFileReader(
                definition: feedOptions.definition(feed), directory: try directory(for: feed, path: path),
                options: feedOptions)
            return PreparedFeed(feed: feed) { write in
                defer { finished?() }
                return try reader.read(firstRows, progress: progress, emitWithRow: write)
            }
        }
    }

    /// The warehouse's store directory, which every feed's rows but the store list's own need.
    private func directory(for feed: FeedID, path: String) throws -> StoreDirectory {
        let directory = try warehouse.storeDirectory()
        if feed != .stores && directory.isEmpty {
            throw FeedError(
                file: FeedFileReader.fileName(path),
                message: "the store directory is empty: run `ddkpi stores import FILE` first")
        }
        return directory
    }
}
