#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded first-in, first-out queue between two threads: `push` blocks while it is full,
/// `pop` while it is empty. `close` ends it from either side: later pushes fail, and pops
/// drain what is left and then return `nil`.
public final class BlockingQueue<Element> {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Appends an element, waiting for room; `false` when the queue was closed.
    public func push(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.count - head >= capacity && !closed { pthread_cond_wait(&changed, &mutex) }
        guard !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(&changed)
        return true
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed and drained.
    public func pop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.count == head && !closed { pthread_cond_wait(&changed, &mutex) }
        guard items.count > head else { return nil }
        let element = items[head]
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(&changed)
        return element
    }

    /// Ends the queue and wakes every waiter.
    public func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}

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
