import Dispatch
import Threads
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `WorkerThread`: jobs run one after another in the order handed over, `wait` returns once the
/// last has finished, a worker let go finishes the job it holds, and a background worker runs
/// its jobs at the lowest priority and says when it is busy.
final class WorkerThreadTests: XCTestCase {
    func testJobsRunInOrderAndWaitSeesTheirWork() throws {
        let worker = try WorkerThread()
        let log = Log()
        for batch in 0..<50 {
            worker.start { log.entries.append(batch) }
        }
        worker.wait()
        XCTAssertEqual(log.entries, Array(0..<50))
        worker.wait()
        XCTAssertEqual(log.entries.count, 50, "a second wait, with no job, returns at once")
    }

    func testAWorkerLetGoFinishesItsJob() throws {
        let log = Log()
        do {
            let worker = try WorkerThread()
            worker.start {
                usleep(20_000)
                log.entries.append(1)
            }
        }
        XCTAssertEqual(log.entries, [1], "the worker's end waits for the job it was given")
    }

    func testABackgroundWorkerYieldsAndSaysWhenItIsBusy() throws {
        #if !os(Linux)
            throw XCTSkip("a thread's own priority is Linux's")
        #else
            let callersPriority = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            let worker = try WorkerThread(priority: .background)
            let release = DispatchSemaphore(value: 0)
            let log = Log()
            XCTAssertFalse(worker.isBusy, "no job yet")
            worker.start {
                release.wait()
                log.entries.append(Int(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)))
            }
            XCTAssertTrue(worker.isBusy, "its job waits to be let go")
            release.signal()
            worker.wait()
            XCTAssertFalse(worker.isBusy)
            XCTAssertEqual(log.entries, [19], "the worker's jobs run at the lowest priority")
            XCTAssertEqual(
                getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0), callersPriority,
                "the caller's thread keeps its own")
        #endif
    }
}

/// Entries appended by one thread at a time (the worker's jobs run one after another).
private final class Log: @unchecked Sendable {
    var entries: [Int] = []
}
