#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bounded first-in, first-out queue between two threads: `push` blocks while it is full,
/// `pop` while it is empty. `close` ends it from either side: later pushes fail, and pops
/// drain what is left and then return `nil`.
///
/// Inlinable, as `BatchPipeline` is, so that a caller in another module (the XLSX reader's
/// chunk ring and batches of rows) gets the queue specialized for its element type rather than
/// generic calls.
public final class BlockingQueue<Element> {
    /// Taken slots are `nil`, so a popped element is the caller's alone.
    @usableFromInline var items: [Element?] = []
    @usableFromInline var head = 0
    @usableFromInline let capacity: Int
    @usableFromInline var closed = false
    @usableFromInline var mutex = pthread_mutex_t()
    @usableFromInline var changed = pthread_cond_t()

    @inlinable public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        items.reserveCapacity(self.capacity)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Appends an element, waiting for room; `false` when the queue was closed.
    @inlinable public func push(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.count - head >= capacity && !closed { pthread_cond_wait(&changed, &mutex) }
        guard !closed else { return false }
        items.append(element)
        pthread_cond_broadcast(&changed)
        return true
    }

    /// The oldest element, waiting for one; `nil` once the queue is closed and drained.
    @inlinable public func pop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while items.count == head && !closed { pthread_cond_wait(&changed, &mutex) }
        return takeOldest()
    }

    /// The oldest element if there is one, without waiting.
    @inlinable public func tryPop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return takeOldest()
    }

    /// Removes and returns the oldest element (the mutex held).
    @inlinable func takeOldest() -> Element? {
        guard items.count > head, let element = items[head].take() else { return nil }
        head += 1
        if head > 64 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        pthread_cond_broadcast(&changed)
        return element
    }

    /// Ends the queue and wakes every waiter.
    @inlinable public func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
