import XCTest

@testable import Feeds

/// The cache of values by cell text: each text's value made once, whatever order the texts
/// come in, and made afresh after the cache starts over at its limit.
final class RecurringTextCacheTests: XCTestCase {
    func testEachTextIsMadeOnceInCyclesRunsAndJumps() {
        var cache = RecurringTextCache<String>(limit: 100)
        var made: [String] = []
        func value(_ text: String) -> String {
            cache.value(of: text) {
                made.append(text)
                return text.uppercased()
            }
        }
        // Stores in the same order day after day, a date repeated on a run of rows, then a jump.
        let texts = ["a1", "b2", "c3", "a1", "b2", "c3", "d4", "d4", "d4", "b2", "a1", "c3", "c3"]
        XCTAssertEqual(texts.map(value), texts.map { $0.uppercased() })
        XCTAssertEqual(made, ["a1", "b2", "c3", "d4"])
    }

    func testAtItsLimitItStartsOver() {
        var cache = RecurringTextCache<Int>(limit: 2)
        var makes = 0
        func value(_ text: String) -> Int {
            cache.value(of: text) {
                makes += 1
                return text.count
            }
        }
        XCTAssertEqual(["x", "yy", "x", "yy"].map(value), [1, 2, 1, 2])
        XCTAssertEqual(makes, 2)
        XCTAssertEqual(value("zzz"), 3)
        XCTAssertEqual(value("x"), 1)
        XCTAssertEqual(makes, 4, "the third text started the cache over, so x was made again")
    }
}
