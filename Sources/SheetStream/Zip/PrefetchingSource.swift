import Threads

/// Reads a `ByteSource` on a background thread into a small ring of chunks, so that inflating
/// (and CRC-checking) a zip entry overlaps with parsing it on the caller's thread.
///
/// Memory is bounded by `depth × chunkSize`. An upstream error is rethrown by `read(into:)`
/// after the bytes that preceded it. Dropping the source early (a consumer that stops reading:
/// an error, a malformed part) wakes, stops and joins the thread and frees the chunks: the
/// thread holds only the shared `ChunkRing`, never the source, so the source's `deinit` runs
/// while the thread still waits for room.
final class PrefetchingSource: ByteSource {
    private let ring: ChunkRing
    private var thread: BackgroundThread?

    private var current: Int?
    private var currentOffset = 0

    /// Chunks allocated and not yet freed, over every source (tests check that a read that
    /// stops early frees its chunks).
    static var liveChunks: Int { ChunkRing.liveChunks.value }

    init(_ upstream: ByteSource, chunkSize: Int = 256 << 10, depth: Int = 4) {
        ring = ChunkRing(upstream: upstream, chunkSize: chunkSize, depth: depth)
    }

    deinit {
        ring.stop()
        thread?.join()
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if thread == nil {
            thread = try BackgroundThread { [ring] in ring.produce() }
        }
        while true {
            if let index = current {
                let available = ring.filledCounts[index] - currentOffset
                if available > 0, let source = ring.chunks[index].baseAddress {
                    let count = min(available, buffer.count)
                    buffer.baseAddress?.copyMemory(from: source + currentOffset, byteCount: count)
                    currentOffset += count
                    return count
                }
                _ = ring.free.push(index)
                current = nil
            }
            guard let next = ring.filled.pop() else {
                if let error = ring.upstreamError { throw error }
                return 0
            }
            current = next
            currentOffset = 0
        }
    }
}

/// The chunks and queues a `PrefetchingSource` shares with its thread. Freed when the last of
/// the two lets go (the thread's body, or the source after joining it).
private final class ChunkRing {
    let upstream: ByteSource
    let chunks: [UnsafeMutableRawBufferPointer]
    /// Bytes in each chunk; written by the thread before it queues the chunk as filled.
    var filledCounts: [Int]
    /// Chunk indexes ready to be filled, and filled ones ready to be parsed.
    let free: BlockingQueue<Int>
    let filled: BlockingQueue<Int>
    /// The upstream's error, set by the thread before it closes `filled`.
    var upstreamError: Error?

    static let liveChunks = SharedCounter()

    init(upstream: ByteSource, chunkSize: Int, depth: Int) {
        self.upstream = upstream
        chunks = (0..<depth).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
        filledCounts = Array(repeating: 0, count: depth)
        free = BlockingQueue(capacity: depth)
        filled = BlockingQueue(capacity: depth)
        for index in 0..<depth { _ = free.push(index) }
        Self.liveChunks.add(depth)
    }

    deinit {
        for chunk in chunks { chunk.deallocate() }
        Self.liveChunks.add(-chunks.count)
    }

    /// Ends both queues, so that a thread waiting on either wakes and returns.
    func stop() {
        free.close()
        filled.close()
    }

    /// The thread's loop: fill free chunks from upstream until the end, an error, or `stop`.
    func produce() {
        while let index = free.pop() {
            do {
                let count = try upstream.read(into: chunks[index])
                guard count > 0 else { break }
                filledCounts[index] = count
                guard filled.push(index) else { return }
            } catch {
                upstreamError = error
                break
            }
        }
        filled.close()
    }
}
