#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread that calls a closure every `interval` until `stop()`: for upkeep beside long work
/// (nudging the kernel, sampling), where a tick may come late but `stop` must not wait out an
/// interval.
public final class PeriodicThread {
    private let clock = StopClock()
    private var thread: BackgroundThread?

    /// Starts calling `tick` every `milliseconds` (at least 1; the first call one interval from
    /// now).
    public init(everyMilliseconds milliseconds: Int, _ tick: @escaping () -> Void) throws {
        let milliseconds = max(milliseconds, 1)
        thread = try BackgroundThread { [clock] in
            while clock.sleep(milliseconds: milliseconds) { tick() }
        }
    }

    deinit { stop() }

    /// Ends the ticks: returns once the thread has ended, a tick under way finished (later calls
    /// return at once).
    public func stop() {
        clock.stop()
        thread?.join()
        thread = nil
    }
}

/// A sleep that `stop` cuts short, by a condition variable on the monotonic clock.
private final class StopClock: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var stopped = false

    init() {
        pthread_mutex_init(&mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if os(Linux)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(&changed, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Sleeps `milliseconds`; `false` (at once) when stopped before or meanwhile.
    func sleep(milliseconds: Int) -> Bool {
        var deadline = timespec()
        #if os(Linux)
            clock_gettime(CLOCK_MONOTONIC, &deadline)
        #else
            clock_gettime(CLOCK_REALTIME, &deadline)
        #endif
        let nanoseconds = Int(deadline.tv_nsec) + milliseconds % 1000 * 1_000_000
        deadline.tv_sec += milliseconds / 1000 + nanoseconds / 1_000_000_000
        deadline.tv_nsec = .init(nanoseconds % 1_000_000_000)
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while !stopped {
            switch pthread_cond_timedwait(&changed, &mutex, &deadline) {
            case ETIMEDOUT: return !stopped
            case 0, EINTR: continue
            default: return false  // a deadline the clock refuses: no more ticks rather than a spin
            }
        }
        return false
    }

    func stop() {
        pthread_mutex_lock(&mutex)
        stopped = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
