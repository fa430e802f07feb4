import Feeds
import SheetStream

/// Runs a file's reading on a background thread and its upserts on the calling (database)
/// thread, with a bounded queue of record batches between them: parsing and SQLite then use
/// both cores instead of taking turns on one.
///
/// An error on either side stops both: a failed upsert closes the queue, so the reader's next
/// `emit` throws; a reader error ends the queue and is rethrown after the upserts already queued.
enum RecordPipeline {
    private struct Closed: Error {}

    static func run(
        batchSize: Int = 512, depth: Int = 8,
        produce: @escaping (_ emit: (FeedRecord) throws -> Void) throws -> FeedReadResult,
        consume: (FeedRecord) throws -> Void
    ) throws -> FeedReadResult {
        let queue = BlockingQueue<[FeedRecord]>(capacity: depth)
        var produced: Result<FeedReadResult, Error> = .failure(Closed())
        let reader = try BackgroundThread {
            var batch: [FeedRecord] = []
            batch.reserveCapacity(batchSize)
            produced = Result {
                let result = try produce { record in
                    batch.append(record)
                    if batch.count == batchSize {
                        guard queue.push(batch) else { throw Closed() }
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty, !queue.push(batch) { throw Closed() }
                return result
            }
            queue.close()
        }
        do {
            while let batch = queue.pop() {
                for record in batch { try consume(record) }
            }
        } catch {
            queue.close()
            reader.join()
            throw error
        }
        reader.join()
        return try produced.get()
    }
}
