import CivilCalendar
import Feeds
import Warehouse
import XCTest

/// Merch sales' vendor and category keys (SPEC section 5), on SQLite and on PostgreSQL: keys the
/// warehouse packs or compares as bytes are summed as the report compares them.
final class MerchKeyTests: SmallStoresTestCase {
    /// Vendor keys and categories longer than seven bytes that share their first seven (long
    /// vendor numbers, "Clothing - Men" and "Clothing - Women") are told apart: each is summed
    /// on its own, on both backends (a key of up to seven bytes is compared packed into an
    /// integer, a longer one as text).
    func testMerchKeysThatShareTheirFirstSevenBytesAreSummedApart() throws {
        let path = try write(
            """
            Store,Date,Vendor #,Vendor Name,Category,Net Sales,Units
            08,2025-07-01,10000001,North,Clothing - Men,100,1
            08,2025-07-01,10000002,South,Clothing - Women,20,2
            08,2025-07-02,10000001,North,Clothing - Men,3,3

            """, named: "merch_long_keys.csv")
        try onEachBackend {
            XCTAssertEqual(ingest("", as: .merchSales, path: path).counts, UpsertCounts(inserted: 3))
            let july1 = CivilDate(year: 2025, month: 7, day: 1)
            let july2 = CivilDate(year: 2025, month: 7, day: 2)
            for (dimension, first, second) in [
                (MerchDimension.vendor, "10000001", "10000002"), (.category, "Clothing - Men", "Clothing - Women"),
            ] {
                let sums = try warehouse.merchMeasures(from: july1, through: july2, by: dimension)
                XCTAssertEqual(sums.count, 2, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: first)]?.salesCents, 10_300, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: second)]?.salesCents, 2_000, "\(dimension)")
                XCTAssertEqual(sums[StoreKey(store: "08", key: first)]?.items, 4, "\(dimension)")
            }
        }
    }

    /// A vendor and a category written precomposed ("Café", U+00E9) in one row and decomposed
    /// ("Cafe" + U+0301) in another are two keys to the warehouse (it compares bytes) and one
    /// to the report (Swift compares strings by canonical equivalence): the report adds their
    /// sales rather than keeping one row's, whether the key is short enough to be packed or not.
    func testMerchKeysSpelledTwoUnicodeWaysAreAddedNotDropped() throws {
        let (nfc, nfd) = ("Caf\u{E9}", "Cafe\u{301}")
        let path = try write(
            "Store,Date,Vendor Name,Category,Net Sales,Units\n"
                + "08,2025-07-01,\(nfc),\(nfc) Paris,100,1\n"
                + "08,2025-07-01,\(nfd),\(nfd) Paris,50,1\n", named: "merch_nfc_nfd.csv")
        try onEachBackend {
            XCTAssertEqual(ingest("", as: .merchSales, path: path).counts, UpsertCounts(inserted: 2))
            let july1 = CivilDate(year: 2025, month: 7, day: 1)
            for dimension in [MerchDimension.vendor, .category] {
                let sums = try warehouse.merchMeasures(from: july1, through: july1, by: dimension)
                XCTAssertEqual(sums.count, 1, "\(dimension)")
                XCTAssertEqual(sums.values.first?.salesCents, 15_000, "\(dimension)")
                XCTAssertEqual(sums.values.first?.items, 2, "\(dimension)")
            }
        }
    }
}
