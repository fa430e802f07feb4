import Foundation
import XCTest

@testable import Feeds

/// The catalog is the one list of feeds: every id names one definition, found by its name.
final class FeedCatalogTests: XCTestCase {
    func testEveryFeedIsOneDefinitionFoundByItsName() throws {
        let names = FeedCatalog.all.map(\.id.rawValue)
        XCTAssertEqual(
            names,
            [
                "sales-audit", "credit-apps", "birdeye-reviews", "crm-intakes", "outbound-calls",
                "employee-performance", "merch-sales", "stores", "goals",
            ])
        XCTAssertEqual(FeedID.allCases.map(\.rawValue), names)
        XCTAssertEqual(FeedID.dataFeeds.map(\.rawValue), Array(names.prefix(7)))
        for definition in FeedCatalog.all {
            XCTAssertEqual(FeedID(rawValue: definition.id.rawValue), definition.id)
            XCTAssertEqual(FeedCatalog.definition(definition.id).id, definition.id)
            XCTAssertFalse(FeedCatalog.definition(definition.id).layouts.isEmpty, definition.id.rawValue)
        }
        XCTAssertNil(FeedID(rawValue: "sales_audit"))
        XCTAssertEqual("\(FeedID.crmIntakes)", "crm-intakes")
    }

    func testAFeedIdIsWrittenAndReadAsItsName() throws {
        let data = try JSONEncoder().encode([FeedID.salesAudit, .goals])
        XCTAssertEqual(String(decoding: data, as: UTF8.self), #"["sales-audit","goals"]"#)
        XCTAssertEqual(try JSONDecoder().decode([FeedID].self, from: data), [.salesAudit, .goals])
        XCTAssertThrowsError(try JSONDecoder().decode([FeedID].self, from: Data(#"["sales"]"#.utf8)))
    }

    func testEachShapeOfRowsIsNamedByItsDefinitions() {
        let rows = Dictionary(grouping: FeedCatalog.all, by: { "\($0.rows)" }).mapValues { $0.map(\.id.rawValue) }
        XCTAssertEqual(rows["dailyEvents"], ["credit-apps", "crm-intakes"])
        XCTAssertEqual(rows["weeklyEvents"], ["birdeye-reviews", "outbound-calls"])
        XCTAssertEqual(FeedCatalog.all.filter(\.rows.isReference).map(\.id), [.stores, .goals])
    }
}
