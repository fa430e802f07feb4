import CivilCalendar
import OutputText
import SheetFixtures
import SheetStream

/// Deterministic synthetic sales-audit rows: store, date, net sales, transactions, items,
/// CCP %, GP %, associate (one of ~500 names) and mostly empty notes.
struct SalesAuditData {
    let rows: Int

    static let header = [
        "Store", "Date", "Net Sales", "Transactions", "Items", "CCP %", "GP %", "Associate", "Notes",
    ]
    static let columnNames = [
        "store", "date", "net_sales", "transactions", "items", "ccp_pct", "gp_pct", "associate", "notes",
    ]

    private static let firstNames = [
        "Ava", "Ben", "Cara", "Dan", "Eve", "Finn", "Gina", "Hal", "Iris", "Jon", "Kim", "Leo", "Mia", "Ned", "Owen",
        "Pia", "Quin", "Rosa", "Sam", "Tess", "Uma", "Vic", "Will", "Xena", "Yves",
    ]
    private static let lastNames = [
        "Adams", "Brown", "Clark", "Diaz", "Evans", "Ford", "Gray", "Hill", "Irwin", "Jones", "King", "Lopez",
        "Moore", "Nash", "Ortiz", "Price", "Quinn", "Reed", "Stone", "Todd",
    ]

    /// One generated row's values.
    struct Record {
        var store: String
        var date: CellDateTime
        var netSales: Double
        var transactions: Int
        var items: Int
        var ccp: Double
        var gp: Double
        var associate: String
        var notes: String?
    }

    func forEachRecord(_ body: (Record) throws -> Void) rethrows {
        var random = SplitMix(seed: 20_250_715)
        let firstDay = CivilDate.daysSinceEpoch(year: 2020, month: 1, day: 1)
        for index in 0..<rows {
            let transactions = 20 + Int(random.next() % 180)
            let items = transactions + Int(random.next() % UInt64(transactions * 2))
            let cents = transactions * (5_000 + Int(random.next() % 40_000))
            let associate = Self.firstNames[Int(random.next() % 25)] + " " + Self.lastNames[Int(random.next() % 20)]
            try body(
                Record(
                    store: Self.storeCode(index % 40 + 1), date: CellDateTime(daysSinceEpoch: firstDay + index / 40),
                    netSales: Double(cents) / 100, transactions: transactions, items: items,
                    ccp: Double(random.next() % 1000) / 1000, gp: Double(300 + random.next() % 400) / 1000,
                    associate: associate, notes: random.next() % 20 == 0 ? "price override approved" : nil))
        }
    }

    func writeXLSX(to path: String, strings: XLSXWriter.StringStorage) throws {
        let writer = try XLSXWriter(path: path, strings: strings)
        try writer.addSheet(named: "Sales Audit")
        try writer.writeRow(Self.header.map { .string($0) })
        try forEachRecord { record in
            try writer.writeRow([
                .string(record.store), .date(record.date), .money(record.netSales),
                .number(Double(record.transactions)),
                .number(Double(record.items)), .percent(record.ccp), .percent(record.gp), .string(record.associate),
                record.notes.map { .string($0) } ?? .empty,
            ])
        }
        try writer.close()
    }

    /// Writes the rows as CSV; with `correctingEvery` N, every Nth row's sales a cent higher
    /// (a corrected re-send of the same keys).
    func writeCSV(to path: String, correctingEvery: Int? = nil) throws {
        let output = try TextOutput(path: path)
        output.write(Self.columnNames.joined(separator: ",") + "\n")
        var index = 0
        forEachRecord { record in
            let corrected = correctingEvery.map { index % $0 == 0 } ?? false
            index += 1
            output.write(
                "\(record.store),\(record.date.iso8601),\(CellText.number(corrected ? record.netSales + 0.01 : record.netSales)),\(record.transactions),\(record.items),\(CellText.number(record.ccp)),\(CellText.number(record.gp)),\(record.associate),\(record.notes ?? "")\n"
            )
        }
        output.flush()
    }

    static func storeCode(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
}
