import OutputText
import XCTest

/// The one escaping that keeps messages, status lines and tables on their line (SPEC section 15).
final class ControlCharactersTests: XCTestCase {
    func testEveryControlCharacterIsEscapedAndTheRestKept() {
        XCTAssertEqual(
            ControlCharacters.escaped("plain — ▲ text\\n"), "plain — ▲ text\\n", "no control characters: as is")
        XCTAssertEqual(ControlCharacters.escaped("a\nb\rc\td"), "a\\nb\\rc\\td")
        XCTAssertEqual(
            ControlCharacters.escaped("\u{0}\u{1B}[0m\u{7}\u{7F}\u{9B}\u{A0}"), "\\x00\\x1b[0m\\x07\\x7f\\x9b\u{A0}")
    }
}
