import CivilCalendar
import Feeds
import XCTest

@testable import Warehouse

/// The batch's values as the backends read them (SQLite binds each text value's bytes in place,
/// PostgreSQL's COPY copies them out): every text value reads back as the text it was given,
/// also when rows share their date's bytes in the arena.
final class PendingValuesTests: XCTestCase {
    func testRowsOfOneDayShareItsTextAndEveryValueReadsBack() {
        let june2 = CivilDate(year: 2025, month: 6, day: 2)
        let june3 = CivilDate(year: 2025, month: 6, day: 3)
        var values = PendingValues(capacity: 64)
        for (store, date) in [("08", june2), ("10", june2), ("108", june3), ("08", june2)] {
            let record = SalesAuditRecord(
                store: store, date: date,
                figures: SalesFigures(totalSalesCents: 1_250_00, totalTransactions: 5, totalItems: 9))
            FeedTables.salesAudit.bind(record, runID: 7, sourceRow: 2, into: &values)
        }
        let columns = FeedTables.salesAudit.upsert.columnCount
        XCTAssertEqual(values.count, 4 * columns)
        let dates = (0..<4).map { text(values, at: $0 * columns) }
        let stores = (0..<4).map { text(values, at: $0 * columns + 1) }
        XCTAssertEqual(dates, ["2025-06-02", "2025-06-02", "2025-06-03", "2025-06-02"])
        XCTAssertEqual(stores, ["08", "10", "108", "08"])
        // The second row points at the first row's date; the fourth follows another date and writes its own.
        XCTAssertEqual(offset(values, at: columns), offset(values, at: 0))
        XCTAssertNotEqual(offset(values, at: 3 * columns), offset(values, at: 0))

        // PostgreSQL's COPY text holds each row's own date.
        var copy: [UInt8] = []
        values.appendCopyText(to: &copy, columnCount: columns, firstSequence: 1)
        let copied = String(decoding: copy, as: UTF8.self).split(separator: "\n").map { $0.prefix(13) }
        XCTAssertEqual(copied, ["2025-06-02\t08", "2025-06-02\t10", "2025-06-03\t10", "2025-06-02\t08"])

        // A new batch starts its arena afresh; a date outside 0…9999 between two equal dates
        // takes its own (longer) text and leaves the shared one alone.
        values.removeAll()
        values.add(june2)
        XCTAssertEqual(offset(values, at: 0), 0)
        XCTAssertEqual(text(values, at: 0), "2025-06-02")
        values.add(CivilDate(year: 10_000, month: 1, day: 1))
        values.add(june2)
        XCTAssertEqual(text(values, at: 1), CivilDate(year: 10_000, month: 1, day: 1).iso8601)
        XCTAssertEqual(text(values, at: 2), "2025-06-02")
        XCTAssertEqual(offset(values, at: 2), 0)
    }

    /// The rollups' weighted sums go in as decimal text: written digit by digit within 64 bits,
    /// through `String` beyond; either way the text `String(value)` gives, beside other text.
    func testDecimalTextIsTheIntegersDigits() {
        let large = Int128(UInt64.max)
        let numbers: [Int128] = [
            0, 7, -7, 10, -10, 1_234_567_890_123, -98_765_432_100, Int128(Int64.max), Int128(Int64.min), large,
            -large, large + 1, -(large + 1), Int128.max, Int128.min,
        ]
        var values = PendingValues(capacity: 64)
        for number in numbers {
            values.add("x")
            values.add(decimalText: number)
        }
        XCTAssertEqual((0..<numbers.count).map { text(values, at: 2 * $0 + 1) }, numbers.map { String($0) })
        XCTAssertEqual(
            (0..<numbers.count).map { text(values, at: 2 * $0) }, Array(repeating: "x", count: numbers.count))
    }

    private func text(_ values: PendingValues, at index: Int) -> String? {
        guard case .text(let offset, let count) = values.values[index] else { return nil }
        return String(decoding: values.text[offset..<offset + count], as: UTF8.self)
    }

    private func offset(_ values: PendingValues, at index: Int) -> Int? {
        guard case .text(let offset, _) = values.values[index] else { return nil }
        return offset
    }
}
