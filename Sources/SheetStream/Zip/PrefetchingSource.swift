#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a `ByteSource` on a background thread into a small ring of chunks, so that inflating
/// (and CRC-checking) a zip entry overlaps with parsing it on the caller's thread.
///
/// Memory is bounded by `depth × chunkSize`. Errors from the upstream source are rethrown by
/// `read(into:)` in order, after the bytes that preceded them. Dropping the source early stops
/// and joins the thread.
final class PrefetchingSource: ByteSource {
    private let upstream: ByteSource
    private let chunks: [UnsafeMutableRawBufferPointer]
    private var filledCounts: [Int]
    private var filled: [Int] = []
    private var free: [Int]
    private var upstreamError: Error?
    private var upstreamEnded = false
    private var cancelled = false
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var thread: pthread_t?

    private var current: Int?
    private var currentOffset = 0

    init(_ upstream: ByteSource, chunkSize: Int = 256 << 10, depth: Int = 4) {
        self.upstream = upstream
        chunks = (0..<depth).map { _ in .allocate(byteCount: chunkSize, alignment: 64) }
        filledCounts = Array(repeating: 0, count: depth)
        free = Array(0..<depth)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        if let thread {
            pthread_mutex_lock(&mutex)
            cancelled = true
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            pthread_join(thread, nil)
        }
        chunks.forEach { $0.deallocate() }
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if thread == nil { try start() }
        while true {
            if let index = current {
                let available = filledCounts[index] - currentOffset
                if available > 0, let source = chunks[index].baseAddress {
                    let count = min(available, buffer.count)
                    buffer.baseAddress?.copyMemory(from: source + currentOffset, byteCount: count)
                    currentOffset += count
                    return count
                }
                pthread_mutex_lock(&mutex)
                free.append(index)
                current = nil
                pthread_cond_broadcast(&changed)
                pthread_mutex_unlock(&mutex)
            }
            pthread_mutex_lock(&mutex)
            while filled.isEmpty && !upstreamEnded { pthread_cond_wait(&changed, &mutex) }
            if filled.isEmpty {
                let error = upstreamError
                pthread_mutex_unlock(&mutex)
                if let error { throw error }
                return 0
            }
            current = filled.removeFirst()
            currentOffset = 0
            pthread_mutex_unlock(&mutex)
        }
    }

    private func start() throws {
        var created = pthread_t()
        let context = Unmanaged.passUnretained(self).toOpaque()
        let status = pthread_create(&created, nil, { context in
            guard let context else { return nil }
            Unmanaged<PrefetchingSource>.fromOpaque(context).takeUnretainedValue().produce()
            return nil
        }, context)
        guard status == 0 else {
            throw ZipError(file: "", .inflate("cannot start the inflate thread: \(String(cString: strerror(status)))"))
        }
        thread = created
    }

    /// The background loop: take a free chunk, fill it from upstream, queue it; stop at the end,
    /// on an error, or when cancelled.
    private func produce() {
        while true {
            pthread_mutex_lock(&mutex)
            while free.isEmpty && !cancelled { pthread_cond_wait(&changed, &mutex) }
            if cancelled {
                pthread_mutex_unlock(&mutex)
                return
            }
            let index = free.removeFirst()
            pthread_mutex_unlock(&mutex)

            var count = 0
            var failure: Error?
            do {
                count = try upstream.read(into: chunks[index])
            } catch {
                failure = error
            }

            pthread_mutex_lock(&mutex)
            filledCounts[index] = count
            if count > 0 { filled.append(index) } else { free.append(index) }
            if failure != nil || count == 0 {
                upstreamError = failure
                upstreamEnded = true
            }
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            if upstreamEnded { return }
        }
    }
}
