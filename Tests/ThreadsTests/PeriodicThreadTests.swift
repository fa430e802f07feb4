import Foundation
import Threads
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// `PeriodicThread`: ticks come while it runs, none after `stop`, and `stop` cuts an interval
/// short rather than waiting it out.
final class PeriodicThreadTests: XCTestCase {
    func testTicksComeUntilStopped() throws {
        let ticks = Counter()
        let thread = try PeriodicThread(everyMilliseconds: 1) { ticks.add() }
        let deadline = Date().addingTimeInterval(60)
        while ticks.value < 5 {
            guard Date() < deadline else { return XCTFail("no ticks in a minute") }
            usleep(1_000)
        }
        thread.stop()
        let atStop = ticks.value
        usleep(20_000)
        XCTAssertEqual(ticks.value, atStop, "no tick after stop returned")
        thread.stop()  // a second stop returns at once
    }

    func testStopDoesNotWaitOutTheInterval() throws {
        let ticks = Counter()
        let thread = try PeriodicThread(everyMilliseconds: 3_600_000) { ticks.add() }
        let started = Date()
        thread.stop()
        // An hour's interval: a stop that waited it out would not return within the test.
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(ticks.value, 0, "the first tick comes one interval after the start")
    }
}

/// A count shared with a thread.
private final class Counter: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var count = 0

    init() { pthread_mutex_init(&mutex, nil) }
    deinit { pthread_mutex_destroy(&mutex) }

    func add() {
        pthread_mutex_lock(&mutex)
        count += 1
        pthread_mutex_unlock(&mutex)
    }

    var value: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return count
    }
}
