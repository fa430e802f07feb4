import CivilCalendar
import Feeds
import Foundation
import Warehouse
import XCTest

/// Money in cents (SPEC section 5), on SQLite and on PostgreSQL.
final class MoneySumTests: SmallStoresTestCase {
    /// Property: for random sets of cent amounts, written in the forms exports use, the
    /// warehouse's sums equal an independent integer sum, to the cent.
    func testMoneySumsEqualAnIndependentIntegerSum() throws {
        try onEachBackend {
            var generator = SystemRandomNumberGenerator()
            let first = CivilDate(year: 2025, month: 1, day: 1)
            for round in 0..<8 {
                var text = "Store,Date,Net Sales,Transactions,Items\n"
                var expected: Int64 = 0
                let days = Int.random(in: 1...300, using: &generator)
                for offset in 0..<days {
                    for store in ["08", "10"] {
                        let cents = Int64.random(in: -5_000_000...500_000_000, using: &generator)
                        expected += cents
                        let magnitude = "\(abs(cents) / 100).\(String(format: "%02lld", abs(cents) % 100))"
                        let written: String
                        switch Int.random(in: 0..<3, using: &generator) {
                        case 0: written = (cents < 0 ? "-" : "") + magnitude
                        case 1: written = cents < 0 ? "\"($\(magnitude))\"" : "$\(magnitude)"
                        default: written = (cents < 0 ? "-" : "") + magnitude + "0"
                        }
                        text += "\(store),\(first.adding(days: offset).iso8601),\(written),3,4\n"
                    }
                }
                // Every key of [first, last] is in this round's file, which replaces earlier rounds' rows there.
                let path = try write(text, named: "sales_audit_random_\(round).csv")
                XCTAssertEqual(ingest("", as: .salesAudit, path: path, options: IngestOptions(force: true)).status, .ok)
                let last = first.adding(days: days - 1)
                let measures = try warehouse.measures(from: first, through: last).values.reduce(MeasureSums(), +)
                XCTAssertEqual(measures.salesCents, Int128(expected), "round \(round)")
                let stored = try warehouse.integer(
                    "SELECT sum(total_sales_cents) FROM store_report WHERE date <= ?", [last.iso8601])
                XCTAssertEqual(stored, expected)
            }
        }
    }
}
