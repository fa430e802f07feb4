#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A computation running on its own thread, whose result can be polled for without blocking
/// and then collected.
public final class BackgroundTask<Value> {
    private var result: Result<Value, Error>?
    private var mutex = pthread_mutex_t()
    private var thread: BackgroundThread?

    /// Starts `body` on a new thread.
    public init(_ body: @escaping () throws -> Value) throws {
        pthread_mutex_init(&mutex, nil)
        thread = try BackgroundThread { [unowned(unsafe) self] in
            let outcome = Result { try body() }
            pthread_mutex_lock(&self.mutex)
            self.result = outcome
            pthread_mutex_unlock(&self.mutex)
        }
    }

    deinit {
        thread?.join()
        pthread_mutex_destroy(&mutex)
    }

    /// Whether the body has returned.
    public var isFinished: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return result != nil
    }

    /// Waits for the body and returns its value, or throws what it threw.
    public func value() throws -> Value {
        thread?.join()
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard let result else { throw ThreadError(message: "a background task ended without a result") }
        return try result.get()
    }
}
