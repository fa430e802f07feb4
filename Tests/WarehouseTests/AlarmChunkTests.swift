import Checks
import CivilCalendar
import TestSupport
import XCTest

@testable import Warehouse

/// The ingest gate checks long files in chunks of days, each carrying the history the one
/// before read: the alarms are those of one pass over the whole span, whatever the chunk size.
final class AlarmChunkTests: WarehouseTestCase {
    func testChunkedChecksFindWhatOnePassFinds() throws {
        let warehouse = try SampleWarehouse.sampleFeeds(at: directory.appendingPathComponent("w.sqlite").path)
        // Faults of every kind the samples can carry: a shifted decimal, a copied week, a zero day.
        let sales = try warehouse.rows(
            "SELECT store_code, date, total_sales_cents, total_transactions, total_items FROM store_report WHERE date BETWEEN '2025-03-01' AND '2025-03-14' ORDER BY date, store_code",
            columns: 5)
        var text = "Store,Date,Net Sales,Transactions,Items\n"
        for row in sales {
            guard let code = row[0], let date = row[1], var cents = Int(row[2] ?? ""),
                let day = CivilDate(iso8601: date)
            else { continue }
            if code == "12", date == "2025-03-04" { cents *= 100 }
            if code == "21", date == "2025-03-12" { cents = 0 }
            let copied = code == "23" && day.day >= 8 ? day.adding(days: -7).iso8601 : date
            let source = sales.first { $0[0] == code && $0[1] == copied } ?? row
            let shown = code == "23" ? Int(source[2] ?? "") ?? cents : cents
            text +=
                "\(code),\(date),\(shown / 100).\(String(format: "%02d", shown % 100)),\(source[3] ?? ""),\(source[4] ?? "")\n"
        }
        let file = directory.appendingPathComponent("sales_audit_march.csv").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(SampleWarehouse.ingest(file, as: .salesAudit, into: warehouse).status, .ok)

        let span =
            CivilDate(year: 2024, month: 6, day: 1)
            .daysSinceEpoch...CivilDate(year: 2025, month: 6, day: 30).daysSinceEpoch
        let onePass = try warehouse.backend.read { session in
            try warehouse.alarms(session, judgedSpan: span, settings: CheckSettings(), judged: { _ in .range(span) })
        }
        let found = Set(onePass.map { "\($0.kind.rawValue) \($0.store) \($0.days.start.iso8601)" })
        for expected in [
            "outlier 12 2025-03-04", "zero-day 21 2025-03-12", "repeated-period 23 2025-03-08", "outlier 10 2025-01-05",
        ] {
            XCTAssertTrue(found.contains(expected), "\(expected) in \(found.sorted())")
        }
        for chunkDays in [63, 64, 100, 200] {
            let chunked = try warehouse.backend.read { session in
                try warehouse.alarms(
                    session, judgedSpan: span, settings: CheckSettings(), chunkDays: chunkDays,
                    judged: { _ in .range(span) })
            }
            XCTAssertEqual(chunked, onePass, "chunks of \(chunkDays) days")
        }
    }
}
