#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A closure running on its own thread until `join()`.
public final class BackgroundThread {
    private var thread = pthread_t()
    private var joined = false
    private let body: () -> Void

    /// Starts `body` on a new thread.
    public init(_ body: @escaping () -> Void) throws {
        self.body = body
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { context in
            guard let context else { return nil }
            let owner = Unmanaged<BackgroundThread>.fromOpaque(context).takeRetainedValue()
            owner.body()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<BackgroundThread>.fromOpaque(context).release()
            throw ThreadError(message: "cannot start a thread: \(String(cString: strerror(status)))")
        }
    }

    /// Waits for the body to return (once; later calls return at once).
    public func join() {
        guard !joined else { return }
        joined = true
        pthread_join(thread, nil)
    }
}

/// A thread could not be started.
public struct ThreadError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}

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

/// An integer several threads add to under a mutex.
final class SharedCounter: @unchecked Sendable {
    private var count = 0
    private var mutex = pthread_mutex_t()

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    var value: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return count
    }

    func add(_ delta: Int) {
        pthread_mutex_lock(&mutex)
        count += delta
        pthread_mutex_unlock(&mutex)
    }
}
