/// Runs a producer on a background thread and its consumer on the calling thread, with a
/// bounded queue of batches between them, so that the two use two cores instead of taking
/// turns on one. Memory is bounded by `(depth + 2) × batchSize` elements.
///
/// Consumed batches go back to the producer, which fills their slots again: elements are
/// replaced (and freed) by the thread that made them, and the consumer spends no time on it.
///
/// An error on either side stops both: a consumer error closes the queue, so the producer's
/// next `emit` throws; a producer error ends the queue and is rethrown after the consumer has
/// taken every element made before it.
///
/// Inlinable, so that a caller in another module gets code specialized for its element type:
/// unspecialized, each element cost a lookup of generic metadata (`Optional<Element>`), about
/// 1,300 instructions, on each side.
public enum BatchPipeline {
    @usableFromInline struct Closed: Error {
        @usableFromInline init() {}
    }

    /// The elements a batch holds unless a caller asks for fewer.
    public static let defaultBatchSize = 256

    /// Runs `produce` (which hands each element to `emit`) on a background thread and `consume`
    /// on this one; returns what `produce` returned.
    @inlinable public static func run<Element, Output>(
        batchSize: Int = defaultBatchSize, depth: Int = 8,
        produce: @escaping (_ emit: (Element) throws -> Void) throws -> Output,
        consume: (Element) throws -> Void
    ) throws -> Output {
        try run(
            batchSize: batchSize, depth: depth, blank: nil, on: nil,
            recycling: { fill in try produce { element in try fill { $0 = element } } },
            consume: { (element: inout Element?) in if let element { try consume(element) } })
    }

    /// Runs the pipeline as `run(batchSize:depth:produce:consume:)` does, with each element
    /// written by `fill` over the one its slot of the batch held the last time round (`blank`
    /// the first time), so that a producer whose elements own storage, a row's cells, refills
    /// it instead of allocating anew. That storage is reused only if `consume` keeps no copy.
    /// `consume` gets each element in its slot (`inout`, whatever it leaves there is refilled):
    /// an element passed by value was copied out of the batch first, a retain and a release
    /// of a row's cells per element on the consumer's thread, whose reference count the
    /// producer's thread had just written. `worker`, when given, runs the producer instead of a
    /// thread started for this run.
    @inlinable public static func run<Element, Output>(
        batchSize: Int = defaultBatchSize, depth: Int = 8, blank: Element, on worker: WorkerThread? = nil,
        recycling produce: @escaping (_ emit: (_ fill: (inout Element) -> Void) throws -> Void) throws -> Output,
        consume: (inout Element) throws -> Void
    ) throws -> Output {
        let queue = BlockingQueue<RecyclingBatch<Element>>(capacity: depth)
        // At most depth + 2 batches exist (queued, filling, consuming), so returning one never waits.
        let spare = BlockingQueue<RecyclingBatch<Element>>(capacity: depth + 2)
        var produced: Result<Output, Error> = .failure(Closed())
        let producerBody = {
            var batch = RecyclingBatch(capacity: batchSize, blank: blank)
            produced = Result {
                let output: Output
                do {
                    output = try produce { fill in
                        batch.add(fill)
                        if batch.count == batchSize {
                            guard queue.push(batch) else { throw Closed() }
                            batch = spare.tryPop() ?? RecyclingBatch(capacity: batchSize, blank: blank)
                            batch.restart()
                        }
                    }
                } catch {
                    // The elements made before the error still reach the consumer, as they would unbatched.
                    if batch.count > 0 { _ = queue.push(batch) }
                    throw error
                }
                if batch.count > 0, !queue.push(batch) { throw Closed() }
                return output
            }
            queue.close()
        }
        let joinProducer: () -> Void
        if let worker {
            worker.start(producerBody)
            joinProducer = worker.wait
        } else {
            joinProducer = try BackgroundThread(producerBody).join
        }
        do {
            while var batch = queue.pop() {
                try batch.forEach(consume)
                _ = spare.push(consume batch)
            }
        } catch {
            queue.close()
            joinProducer()
            throw error
        }
        joinProducer()
        return try produced.get()
    }
}

/// A batch whose slots outlive one trip through the pipeline: the first `count` hold this
/// trip's elements, the rest what an earlier trip left for `add` to refill.
@usableFromInline struct RecyclingBatch<Element> {
    @usableFromInline let blank: Element
    @usableFromInline var slots: [Element] = []
    /// Set by the batch's own methods alone (internal only so that they can be inlined).
    @usableFromInline var count = 0

    @inlinable init(capacity: Int, blank: Element) {
        self.blank = blank
        slots.reserveCapacity(capacity)
    }

    /// Adds an element, written by `fill` over the next slot's earlier one (in place).
    @inlinable mutating func add(_ fill: (inout Element) -> Void) {
        if count == slots.count { slots.append(blank) }
        fill(&slots[count])
        count += 1
    }

    /// Starts the next trip: the slots stay for `add` to refill.
    @inlinable mutating func restart() { count = 0 }

    /// Calls `body` with this trip's elements in their slots, in order.
    @inlinable mutating func forEach(_ body: (inout Element) throws -> Void) rethrows {
        for index in 0..<count { try body(&slots[index]) }
    }
}
