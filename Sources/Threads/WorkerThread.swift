#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One helper thread that runs jobs one after another, each handed over by `start` and awaited
/// by `wait`: for work that comes in many batches, one thread for all of them rather than one
/// per batch (starting and ending a thread maps and unmaps its stack, which interrupts the
/// process's other threads). A background worker yields the cores to the process's other
/// threads.
public final class WorkerThread {
    private let mailbox = Mailbox()
    private let thread: BackgroundThread

    /// How a worker's jobs share the cores with the process's other threads.
    public enum Priority: Sendable {
        /// As any other thread's.
        case normal
        /// Behind the process's other threads: the jobs run on what those leave of the cores
        /// (on Linux the thread's nice value is 19; there a nice value is a thread's own, and
        /// under the kernel's autogroups or a service's control group it weighs against that
        /// group's threads, not the machine's). For work that may fall behind, whose caller
        /// waits for it only now and then.
        case background
    }

    /// Starts the thread, idle until a job comes.
    public init(priority: Priority = .normal) throws {
        thread = try BackgroundThread { [mailbox] in
            if priority == .background { Self.yieldToOtherThreads() }
            mailbox.serve()
        }
    }

    deinit {
        mailbox.close()
        thread.join()
    }

    /// Hands `job` to the thread once the job before has finished.
    public func start(_ job: @escaping () -> Void) { mailbox.put(job) }

    /// Waits until the last job handed over has finished (at once when there is none).
    public func wait() { mailbox.waitUntilIdle() }

    /// Whether a job is waiting or running: `start` would wait, `wait` would not return at once.
    public var isBusy: Bool { mailbox.isBusy }

    /// Gives the calling thread the lowest priority, where the system has one per thread.
    private static func yieldToOtherThreads() {
        #if os(Linux)
            // `who` 0 is the calling thread (not the process) on Linux.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}

/// The job waiting for or running on a `WorkerThread`, guarded by a mutex.
private final class Mailbox: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var job: (() -> Void)?
    private var running = false
    private var closed = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Waits until the thread is idle, then gives it `job`.
    func put(_ job: @escaping () -> Void) {
        pthread_mutex_lock(&mutex)
        while self.job != nil || running { pthread_cond_wait(&changed, &mutex) }
        self.job = job
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until no job is waiting or running.
    func waitUntilIdle() {
        pthread_mutex_lock(&mutex)
        while job != nil || running { pthread_cond_wait(&changed, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    /// Whether a job is waiting or running.
    var isBusy: Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return job != nil || running
    }

    /// Ends the thread once its jobs are done.
    func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// The thread's loop: runs each job handed over until closed.
    func serve() {
        pthread_mutex_lock(&mutex)
        while true {
            while job == nil && !closed { pthread_cond_wait(&changed, &mutex) }
            guard let next = job else { break }
            job = nil
            running = true
            pthread_mutex_unlock(&mutex)
            next()
            pthread_mutex_lock(&mutex)
            running = false
            pthread_cond_broadcast(&changed)
        }
        pthread_mutex_unlock(&mutex)
    }
}
