import Threads

/// Runs a producer on a background thread and its consumer on the calling thread, with a
/// bounded queue of batches between them, so that the two use two cores instead of taking
/// turns on one. Memory is bounded by `(depth + 2) × batchSize` elements.
///
/// Consumed batches go back to the producer, which empties them for reuse: elements are
/// freed by the thread that allocated them, and the consumer spends no time on it.
///
/// An error on either side stops both: a consumer error closes the queue, so the producer's
/// next `emit` throws; a producer error ends the queue and is rethrown after the consumer has
/// taken what was queued before it.
public enum BatchPipeline {
    private struct Closed: Error {}

    /// Runs `produce` (which hands each element to `emit`) on a background thread and `consume`
    /// on this one; returns what `produce` returned.
    public static func run<Element, Output>(
        batchSize: Int = 256, depth: Int = 8,
        produce: @escaping (_ emit: (Element) throws -> Void) throws -> Output,
        consume: (Element) throws -> Void
    ) throws -> Output {
        let queue = BlockingQueue<[Element]>(capacity: depth)
        // At most depth + 2 batches exist (queued, filling, consuming), so returning one never waits.
        let spare = BlockingQueue<[Element]>(capacity: depth + 2)
        var produced: Result<Output, Error> = .failure(Closed())
        let producer = try BackgroundThread {
            var batch: [Element] = []
            batch.reserveCapacity(batchSize)
            produced = Result {
                let output = try produce { element in
                    batch.append(element)
                    if batch.count == batchSize {
                        guard queue.push(batch) else { throw Closed() }
                        batch = spare.tryPop() ?? []
                        batch.removeAll(keepingCapacity: true)
                        batch.reserveCapacity(batchSize)
                    }
                }
                if !batch.isEmpty, !queue.push(batch) { throw Closed() }
                return output
            }
            queue.close()
        }
        do {
            while let batch = queue.pop() {
                for element in batch { try consume(element) }
                _ = spare.push(consume batch)
            }
        } catch {
            queue.close()
            producer.join()
            throw error
        }
        producer.join()
        return try produced.get()
    }
}
