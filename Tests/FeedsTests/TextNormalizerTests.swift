import XCTest

@testable import Feeds

/// The cheap word filter behind total-row detection, on text short enough to be stored inline
/// in the string (read from the stack) and on longer text; text that is not ASCII may hold the
/// word once cleaned.
final class ContainsASCIITests: XCTestCase {
    func testFindsTheWordInShortAndLongTextWhateverItsCase() {
        XCTAssertTrue(TextNormalizer.mayHoldOnceCleaned("TOTAL", "total"))
        XCTAssertTrue(TextNormalizer.mayHoldOnceCleaned("Grand Total:", "total"))
        XCTAssertTrue(TextNormalizer.mayHoldOnceCleaned(String(repeating: "x", count: 40) + " Totals", "total"))
        XCTAssertFalse(TextNormalizer.mayHoldOnceCleaned("01", "total"))
        XCTAssertFalse(TextNormalizer.mayHoldOnceCleaned("Tota", "total"))
        XCTAssertFalse(TextNormalizer.mayHoldOnceCleaned(String(repeating: "tota ", count: 20), "total"))
        XCTAssertTrue(TextNormalizer.mayHoldOnceCleaned("Grand To\u{200B}tal", "total"))
        XCTAssertFalse(TextNormalizer.mayHoldOnceCleaned("\u{E9}\u{E9}", "total"), "fewer bytes than the word")
    }
}
