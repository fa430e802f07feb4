/// Reads a `ByteSource` on a background thread into a small ring of chunks, so that inflating
/// (and CRC-checking) a zip entry overlaps with parsing it on the caller's thread.
///
/// Memory is bounded by `depth × chunkSize`. An upstream error is rethrown by `read(into:)`
/// after the bytes that preceded it. Dropping the source early stops and joins the thread.
final class PrefetchingSource: ByteSource {
    private let upstream: ByteSource
    private let chunks: [UnsafeMutableRawBufferPointer]
    private var filledCounts: [Int]
    /// Chunk indexes ready to be filled, and filled ones ready to be parsed.
    private let free: BlockingQueue<Int>
    private let filled: BlockingQueue<Int>
    private var upstreamError: Error?
    private var thread: BackgroundThread?

    private var current: Int?
    private var currentOffset = 0

    init(_ upstream: ByteSource, chunkSize: Int = 256 << 10, depth: Int = 4) {
        self.upstream = upstream
        chunks = (0..<depth).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
        filledCounts = Array(repeating: 0, count: depth)
        free = BlockingQueue(capacity: depth)
        filled = BlockingQueue(capacity: depth)
        for index in 0..<depth { _ = free.push(index) }
    }

    deinit {
        free.close()
        filled.close()
        thread?.join()
        chunks.forEach { $0.deallocate() }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if thread == nil {
            // `unowned(unsafe)`: deinit joins the thread before the object goes, and a checked unowned
            // reference would trap while deinit runs.
            thread = try BackgroundThread { [unowned(unsafe) self] in self.produce() }
        }
        while true {
            if let index = current {
                let available = filledCounts[index] - currentOffset
                if available > 0, let source = chunks[index].baseAddress {
                    let count = min(available, buffer.count)
                    buffer.baseAddress?.copyMemory(from: source + currentOffset, byteCount: count)
                    currentOffset += count
                    return count
                }
                _ = free.push(index)
                current = nil
            }
            guard let next = filled.pop() else {
                if let upstreamError { throw upstreamError }
                return 0
            }
            current = next
            currentOffset = 0
        }
    }

    /// The background loop: fill free chunks from upstream until the end, an error, or closing.
    private func produce() {
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
