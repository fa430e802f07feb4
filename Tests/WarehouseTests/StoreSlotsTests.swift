import XCTest

@testable import Warehouse

/// Store codes are numbered in the order they first come, whatever order they recur in: in
/// cycles (a store-day file), runs, jumps back, and codes too long to pack.
final class StoreSlotsTests: XCTestCase {
    func testCodesAreNumberedInFirstComeOrderOverCyclesRunsAndJumps() {
        var slots = StoreSlots()
        let seen = ["08", "10", "108", "08", "10", "108", "08", "08", "10", "store-0042", "108", "store-0042", "08"]
        XCTAssertEqual(seen.map { slots.slot(of: $0) }, [0, 1, 2, 0, 1, 2, 0, 0, 1, 3, 2, 3, 0])
        XCTAssertEqual(slots.codes, ["08", "10", "108", "store-0042"])
    }
}
