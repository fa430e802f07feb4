import CivilCalendar
import Foundation
import XCTest

final class UTCTimestampTests: XCTestCase {
    /// The text `ISO8601DateFormatter` writes with internet date-time and fractional seconds.
    func testTextMatchesFoundationsISO8601() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for (seconds, milliseconds) in [(0, 0), (951_782_400, 7), (1_795_760_401, 123), (4_102_444_799, 999)] {
            XCTAssertEqual(
                UTCTimestamp.text(seconds: seconds, milliseconds: milliseconds),
                formatter.string(from: Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)),
                "\(seconds) s \(milliseconds) ms")
        }
        XCTAssertEqual(UTCTimestamp.text(seconds: 951_782_400, milliseconds: 7), "2000-02-29T00:00:00.007Z")
    }

    func testNowIsTheCurrentSecond() {
        let before = Int(Date().timeIntervalSince1970)
        let now = UTCTimestamp.now()
        let after = Int(Date().timeIntervalSince1970)
        let candidates = (before...after).map { UTCTimestamp.text(seconds: $0, milliseconds: 0).prefix(19) }
        XCTAssertTrue(candidates.contains(now.prefix(19)), now)
        XCTAssertEqual(now.count, 24)
        XCTAssertTrue(now.hasSuffix("Z"))
    }
}
