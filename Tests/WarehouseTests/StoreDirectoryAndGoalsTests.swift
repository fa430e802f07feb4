import Feeds
import Warehouse
import XCTest

/// The store directory and goals as the warehouse keeps them, on SQLite and on PostgreSQL.
final class StoreDirectoryAndGoalsTests: SmallStoresTestCase {
    func testStoreDirectoryRoundTripAndGoals() throws {
        try onEachBackend {
            let stores = try warehouse.stores()
            XCTAssertEqual(stores.map(\.code), ["08", "10"])
            XCTAssertEqual(stores[0].aliases.sorted(), ["Hannoush Jewelers - Natick", "Natick Mall"])
            let goals = ingest("goals_small.csv", as: .goals, options: IngestOptions(rejectThreshold: 1))
            XCTAssertEqual(goals.counts.inserted, 3, goals.error ?? "")
            let daily = try warehouse.rows("SELECT target FROM goal WHERE date = '2025-07-14'", columns: 1)
            XCTAssertEqual(daily.first?.first?.flatMap { Double($0) }, 5000)
        }
    }
}
