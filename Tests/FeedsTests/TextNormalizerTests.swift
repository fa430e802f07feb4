import XCTest

@testable import Feeds

/// The cheap word filter behind total-row detection, on text short enough to be stored inline
/// in the string (read from the stack) and on longer text.
final class ContainsASCIITests: XCTestCase {
    func testFindsTheWordInShortAndLongTextWhateverItsCase() {
        XCTAssertTrue(TextNormalizer.containsASCII("TOTAL", "total"))
        XCTAssertTrue(TextNormalizer.containsASCII("Grand Total:", "total"))
        XCTAssertTrue(TextNormalizer.containsASCII(String(repeating: "x", count: 40) + " Totals", "total"))
        XCTAssertFalse(TextNormalizer.containsASCII("01", "total"))
        XCTAssertFalse(TextNormalizer.containsASCII("Tota", "total"))
        XCTAssertFalse(TextNormalizer.containsASCII(String(repeating: "tota ", count: 20), "total"))
    }
}
