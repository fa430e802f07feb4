import Threads
import XCTest

/// `WorkerThread`: jobs run one after another in the order handed over, `wait` returns once the
/// last has finished, and a worker let go finishes the job it holds.
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
}

/// Entries appended by one thread at a time (the worker's jobs run one after another).
private final class Log: @unchecked Sendable {
    var entries: [Int] = []
}
