import Feeds
import SheetStream
import Warehouse

/// Wires one file to the warehouse, the same way for the command line, the benchmarks and the
/// tests: opens it, decides its feed (the one given, else by its name, else by its headers),
/// reads it with the warehouse's store directory, and ingests it in one transaction.
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
    public func ingest(_ path: String, progress: ((Int) -> Void)? = nil, finished: (() -> Void)? = nil) -> IngestOutcome
    {
        warehouse.ingest(path: path, options: options) {
            let file = try SpreadsheetFile.open(path: path)
            let feed = try FeedDetector(options: feedOptions, extraNamePatterns: extraNamePatterns).detect(
                file, explicit: explicitFeed)
            let directory = try warehouse.storeDirectory()
            if feed != .stores && directory.isEmpty {
                throw FeedError(
                    file: FeedFileReader.fileName(path),
                    message: "the store directory is empty: run `ddkpi stores import FILE` first")
            }
            let reader = FeedFileReader(
                definition: feedOptions.definition(feed), directory: directory, options: feedOptions)
            return PreparedFeed(feed: feed) { emit in
                defer { finished?() }
                return try reader.read(file, progress: progress, emitWithRow: emit)
            }
        }
    }
}
