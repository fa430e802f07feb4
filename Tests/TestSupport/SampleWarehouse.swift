import Feeds
import Foundation
import Ingest
import Warehouse

/// Builds warehouses for tests through the library's own ingest path.
public enum SampleWarehouse {
    /// Ingests one file as `feed` (the store directory is read from the warehouse first).
    @discardableResult
    public static func ingest(
        _ path: String, as feed: FeedID, into warehouse: Warehouse, options: FeedOptions = FeedOptions(),
        threshold: Double = 1
    ) -> IngestOutcome {
        FileIngestor(
            warehouse: warehouse, feedOptions: options, explicitFeed: feed,
            options: IngestOptions(rejectThreshold: threshold)
        )
        .ingest(path)
    }

    /// A warehouse at `path` holding all of `SampleFeeds/`.
    public static func sampleFeeds(at path: String) throws -> Warehouse {
        let warehouse = try Warehouse(path: path)
        let samples = TestPaths.packageRoot.appendingPathComponent("SampleFeeds")
        ingest(samples.appendingPathComponent("reference/stores.csv").path, as: .stores, into: warehouse)
        ingest(samples.appendingPathComponent("reference/goals.xlsx").path, as: .goals, into: warehouse)
        let detector = FeedDetector(options: FeedOptions())
        let feeds = samples.appendingPathComponent("feeds")
        for name in try FileManager.default.contentsOfDirectory(atPath: feeds.path).sorted() {
            let path = feeds.appendingPathComponent(name).path
            guard let feed = detector.feed(forFileName: path) else { continue }
            ingest(path, as: feed, into: warehouse)
        }
        return warehouse
    }
}
