import XCTest

@testable import Warehouse

/// Store codes are numbered in the order they first come, whatever order they recur in: in
/// cycles (a store-day file), runs, jumps back, codes too long to pack, and codes that Swift's
/// string comparison would take for one another; read from records or from query rows alike.
final class StoreSlotsTests: XCTestCase {
    func testCodesAreNumberedInFirstComeOrderOverCyclesRunsAndJumps() {
        var slots = StoreSlots()
        let seen = ["08", "10", "108", "08", "10", "108", "08", "08", "10", "store-0042", "108", "store-0042", "08"]
        XCTAssertEqual(seen.map { slots.slot(of: $0) }, [0, 1, 2, 0, 1, 2, 0, 0, 1, 3, 2, 3, 0])
        XCTAssertEqual(slots.codes, ["08", "10", "108", "store-0042"])
    }

    /// "\u{212A}" (the Kelvin sign) equals "K" as a Swift string; as a store code it is
    /// another store, in a short code or a long one, and codes of eight bytes or more that
    /// share their first seven are too.
    func testCodesDifferingInTheirBytesAreDifferentStores() {
        var slots = StoreSlots()
        let seen = ["K1", "\u{212A}1", "K1", "123456789", "123456788", "123456789", "K1234567", "\u{212A}1234567"]
        XCTAssertEqual(seen.map { slots.slot(of: $0) }, [0, 1, 0, 2, 3, 2, 4, 5])
        var fromRows = StoreSlots()
        let rows = ["12345678", "12345679", "08", "12345678"].map { QueryRow(text: $0) }
        XCTAssertEqual(rows.map { fromRows.slot(of: $0, column: 0) }, [0, 1, 2, 0])
        XCTAssertEqual(fromRows.codes, ["12345678", "12345679", "08"])
    }
}

/// A query row of one text column, its bytes held as a backend's row holds them.
private final class QueryRow: ScannedRow {
    private let storage: UnsafeMutableBufferPointer<UInt8>

    init(text: String) {
        storage = .allocate(capacity: text.utf8.count)
        _ = storage.initialize(from: text.utf8)
    }

    deinit { storage.deallocate() }

    func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? { UnsafeBufferPointer(storage) }
    func int64(_ column: Int32) -> Int64 { 0 }
    func optionalInt64(_ column: Int32) -> Int64? { nil }
    func double(_ column: Int32) -> Double { 0 }
}
