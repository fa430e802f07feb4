import SheetFixtures
import SheetStream
import TestSupport
import XCTest

final class XLSXWriterTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    func testRoundTripOfEveryValueKindInBothStringStorages() throws {
        let when = try XCTUnwrap(CellDateTime(year: 2025, month: 7, day: 15, hour: 13, minute: 45))
        let day = try XCTUnwrap(CellDateTime(year: 2024, month: 2, day: 29))
        for storage in [XLSXWriter.StringStorage.shared, .inline] {
            let path = directory.appendingPathComponent("round-\(storage).xlsx").path
            let writer = try XLSXWriter(path: path, strings: storage)
            try writer.addSheet(named: "Sales & <Co>")
            try writer.writeRow([.string("Store"), .string(" padded "), .string("a_x000D_b\r")])
            try writer.writeRow([
                .date(day), .date(when), .money(1234.5), .percent(0.452), .number(-3), .bool(true), .empty,
                .string("x"),
            ])
            try writer.addSheet(named: "Second")
            try writer.writeRow([.number(1)])
            try writer.close()

            let workbook = try XLSXWorkbook(path: path)
            XCTAssertEqual(workbook.sheets.map(\.name), ["Sales & <Co>", "Second"])
            var rows: [Row] = []
            try workbook.readRows(of: workbook.sheets[0]) { rows.append($0) }
            XCTAssertEqual(rows[0].cells, [.string("Store"), .string(" padded "), .string("a_x000D_b\r")])
            XCTAssertEqual(
                rows[1].cells,
                [
                    .date(day), .date(when), .number(1234.5), .number(0.452), .number(-3), .bool(true), .empty,
                    .string("x"),
                ])
        }
    }

    /// Reading a 200k-row sheet keeps the reused row and cell-text buffers at their first sizes:
    /// memory is the shared-string table plus one row, whatever the row count.
    func testReadingALargeSheetKeepsBuffersBounded() throws {
        let path = directory.appendingPathComponent("large.xlsx").path
        let writer = try XLSXWriter(path: path, compressionLevel: 1)
        try writer.addSheet(named: "Big")
        for index in 0..<200_000 {
            try writer.writeRow([
                .string("store \(index % 40)"), .number(Double(index)), .percent(0.5), .string("note \(index % 500)"),
            ])
        }
        try writer.close()
        let workbook = try XLSXWorkbook(path: path)
        var rows = 0
        var lastValue = 0.0
        try workbook.readRows(of: workbook.sheets[0]) { row in
            rows += 1
            if case .number(let value) = row[1] { lastValue = value }
        }
        let statistics = workbook.lastReadStatistics
        XCTAssertEqual(rows, 200_000)
        XCTAssertEqual(lastValue, 199_999)
        XCTAssertEqual(statistics.sharedStrings, 540)
        XCTAssertLessThanOrEqual(statistics.peakRowCapacity, 8)
        XCTAssertLessThanOrEqual(statistics.peakCellTextCapacity, 256)
    }
}
