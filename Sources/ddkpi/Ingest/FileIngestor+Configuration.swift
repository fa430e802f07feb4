import Feeds
import Ingest
import Warehouse

extension FileIngestor {
    /// The command line's ingestor: the config's aliases, week start, date order and file-name
    /// patterns.
    init(warehouse: Warehouse, configuration: Configuration, explicitFeed: FeedID?, options: IngestOptions) {
        self.init(
            warehouse: warehouse, feedOptions: configuration.feedOptions, extraNamePatterns: configuration.namePatterns,
            explicitFeed: explicitFeed, options: options)
    }
}
