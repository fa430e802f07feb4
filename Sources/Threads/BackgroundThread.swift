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
        let status = pthread_create(
            &thread, nil,
            { context in
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
    /// What failed, and the system's reason.
    public var message: String
    /// The message.
    public var description: String { message }
}
