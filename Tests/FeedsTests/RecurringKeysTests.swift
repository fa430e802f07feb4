import Feeds
import XCTest

/// Keys numbered in the order they first come, whatever order they recur in.
final class RecurringKeysTests: XCTestCase {
    func testKeysAreNumberedInFirstComeOrderOverCyclesRunsAndJumps() {
        var keys = RecurringKeys<UInt64>()
        let seen: [UInt64] = [7, 3, 9, 7, 3, 9, 5, 5, 5, 3, 7, 9, 9]
        XCTAssertEqual(seen.map { keys.number(of: $0) }, [0, 1, 2, 0, 1, 2, 3, 3, 3, 1, 0, 2, 2])
        XCTAssertEqual(keys.count, 4)
        keys.removeAll()
        XCTAssertEqual(keys.count, 0)
        XCTAssertEqual([9, 7, 9].map { keys.number(of: $0) }, [0, 1, 0])
    }
}
