import Threads
import XCTest

/// `mapInTwoHalves`: the same values in the same order as `map`, whatever the count.
final class ParallelMapTests: XCTestCase {
    func testTwoHalvesGiveWhatMapGivesInOrder() {
        for count in [0, 1, 2, 3, 1001] {
            let numbers = Array(0..<count)
            XCTAssertEqual(numbers.mapInTwoHalves { "\($0 * $0)" }, numbers.map { "\($0 * $0)" }, "\(count) elements")
        }
    }
}
