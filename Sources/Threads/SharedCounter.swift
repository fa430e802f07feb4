#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An integer several threads add to under a mutex.
public final class SharedCounter: @unchecked Sendable {
    private var count = 0
    private var mutex = pthread_mutex_t()

    public init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    public var value: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return count
    }

    public func add(_ delta: Int) {
        pthread_mutex_lock(&mutex)
        count += delta
        pthread_mutex_unlock(&mutex)
    }
}
