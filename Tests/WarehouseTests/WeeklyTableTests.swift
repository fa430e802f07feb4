import Feeds
import Warehouse
import XCTest

/// Weekly feeds' tables (SPEC section 5), on SQLite and on PostgreSQL.
final class WeeklyTableTests: SmallStoresTestCase {
    func testWeeklyTablesKeepDailyCountsInColumns() throws {
        try onEachBackend {
            XCTAssertEqual(ingest("calls_weekly_small.csv", as: .outboundCalls).counts.inserted, 2)
            let days = try warehouse.rows(
                "SELECT total_calls, day_0, day_1, day_2, day_3, day_4, day_5, day_6 FROM outbound_call_report WHERE store_code = '08'",
                columns: 8)
            XCTAssertEqual(days, [["28", "1", "2", "3", "4", "5", "6", "7"]])
            XCTAssertEqual(ingest("birdeye_weekly_small.csv", as: .birdeyeReviews).counts.inserted, 1)
            let reviews = try warehouse.rows("SELECT review_count, day_0 FROM birdeye_report", columns: 2)
            XCTAssertEqual(reviews, [["7", nil]], "a weekly summary has no per-day counts")
        }
    }
}
