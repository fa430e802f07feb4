import XCTest

@testable import Feeds

/// Scope ids as reports print them and read them back (SPEC sections 7 and 21).
final class ScopeIDTests: XCTestCase {
    func testEachKindPrintsAndReadsBack() {
        let ids: [(ScopeID, String)] = [
            (.store("08"), "08"), (.region("East"), "region:East"), (.all, "ALL"),
            (.comparable(.region("East")), "comp:region:East"), (.comparable(.all), "comp:ALL"),
        ]
        for (id, text) in ids {
            XCTAssertEqual(id.description, text)
            XCTAssertEqual(ScopeID(text), id, text)
        }
        XCTAssertTrue(ScopeID("08").isStore)
        XCTAssertFalse(ScopeID("comp:ALL").isStore)
        XCTAssertTrue(ScopeID("comp:ALL").isComparable)
        XCTAssertEqual(ScopeID("comp:region:East").total, .region("East"))
        XCTAssertEqual(ScopeID("region:East").total, .region("East"))
    }
}
