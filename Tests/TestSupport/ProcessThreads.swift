import Foundation

/// The threads of this test process, for tests that a stopped read leaves none behind.
public enum ProcessThreads {
    /// How many threads the process has now (Linux's `/proc/self/task`; 0 where there is none).
    public static var count: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
    }
}
