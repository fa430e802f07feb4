import Foundation

/// The process's thread count, for tests that a reader leaves no thread behind.
public enum ProcessThreads {
    /// How many threads the process has now (Linux's `/proc/self/task`; 0 where there is none).
    public static var count: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }

    /// The thread count once it is at most `limit`, or after two seconds of waiting for that:
    /// a thread that is ending (or one the runtime parks) is given the time to go, a leaked one
    /// stays.
    public static func settledCount(atMost limit: Int) -> Int {
        for _ in 0..<40 {
            let now = count
            if now <= limit { return now }
            usleep(50_000)
        }
        return count
    }
}
