import CivilCalendar
import Feeds

/// What the merch report sums per key: sales and items.
public struct MerchSums: Equatable, Sendable {
    public var salesCents: Int128 = 0
    public var items: Int128 = 0

    public init() {}

    /// Adds another store's sums.
    public mutating func merge(_ other: MerchSums) {
        salesCents += other.salesCents
        items += other.items
    }

    /// Adds a row's sales and items.
    mutating func add(cents: Int64, items: Int64) {
        salesCents += Int128(cents)
        self.items += Int128(items)
    }
}

/// Which dimension of the merch table a report ranks.
public enum MerchDimension: String, Sendable, CaseIterable {
    case vendor, category
}

extension Warehouse {
    /// Sales measures per associate and store over `[start, end]` (SPEC section 9): daily rows
    /// in the range, plus the monthly row of each whole month in the range for which that
    /// associate and store have no daily rows.
    public func employeeMeasures(from start: CivilDate, through end: CivilDate) throws -> [StoreKey: MeasureSums] {
        var sums: [StoreKey: MeasureSums] = [:]
        try readDayOrMonthRows(
            table: FeedTables.employeeSales.name,
            columns: [EmployeeSalesColumns.employeeId] + SalesFigureColumns.all,
            from: start, through: end,
            key: { row in StoreKey(store: row.text(1), key: row.text(2)) },
            add: { row, key in
                sums[key, default: MeasureSums()].addSales(
                    cents: row.int64(3), transactions: row.int64(4), items: row.int64(5),
                    ccpMillionths: row.optionalInt64(6),
                    gpMillionths: row.optionalInt64(7))
            })
        return sums
    }

    /// The associates' names: the name on each id's row with the latest date (ties: the later ingest).
    public func employeeNames() throws -> [String: String] {
        try backend.read { session in
            var names: [String: String] = [:]
            try session.scan("SELECT employee_id, name FROM employee") { row in names[row.text(0)] = row.text(1) }
            return names
        }
    }

    /// Sales and items per store and vendor key or category over `[start, end]`, by SPEC
    /// section 9's day-or-month rule per store, month and key; rows without the dimension take no part.
    public func merchMeasures(from start: CivilDate, through end: CivilDate, by dimension: MerchDimension) throws
        -> [StoreKey: MerchSums]
    {
        var sums: [RowPair: (key: StoreKey, sums: MerchSums)] = [:]
        let keyColumn = dimension == .vendor ? MerchSalesColumns.vendorKey : MerchSalesColumns.category
        try readDayOrMonthRows(
            table: FeedTables.merchSales.name, columns: [keyColumn, MerchSalesColumns.sales, MerchSalesColumns.items],
            condition: "\(keyColumn) <> ''", from: start, through: end,
            key: { row in RowPair(row, 1, 2) },
            add: { row, pair in
                // Strings are made once per store and key.
                sums[pair, default: (StoreKey(store: row.text(1), key: row.text(2)), MerchSums())].sums.add(
                    cents: row.int64(3), items: row.int64(4))
            })
        // Keys told apart by their bytes may still be one key to Swift (a vendor "Café" written
        // precomposed and decomposed): their sums are added, as longer keys, compared as text,
        // are added in `sums` already.
        return Dictionary(sums.values.map { ($0.key, $0.sums) }) { first, second in
            var merged = first
            merged.merge(second)
            return merged
        }
    }

    /// The vendors' names: per vendor key, the name on its row with the latest date anywhere in
    /// the warehouse (a month row as of day 31; ties: the later ingest), SPEC section 10.
    public func vendorNames() throws -> [String: String] {
        try backend.read { session in
            var names: [String: String] = [:]
            try session.scan("SELECT vendor_key, name FROM vendor") { row in names[row.text(0)] = row.text(1) }
            return names
        }
    }

    /// Reads a table whose rows are days (`date` = `YYYY-MM-DD`, `grain` `day`) or whole months
    /// (`YYYY-MM`, `grain` `month`) over `[start, end]`: every day row in the range, and the month
    /// rows of the months wholly inside the range whose key has no day row in that month.
    ///
    /// Month rows are few: they are read first, and only day rows of their keys and months are
    /// looked at to set them aside. `add` receives rows as `date, store_code, columns…`.
    private func readDayOrMonthRows<Key: Hashable>(
        table: String, columns: [String], condition: String = "TRUE", from start: CivilDate, through end: CivilDate,
        key: (any ScannedRow) -> Key, add: (any ScannedRow, Key) -> Void
    ) throws {
        let wholeMonths = CivilDate.monthParts(from: start, through: end)
            .filter { CivilDate.isWholeMonth(from: $0.start, through: $0.end) }.map(\.month)
        let select = "SELECT date, store_code, \(columns.joined(separator: ", ")) FROM \(table)"
        let monthQuery =
            "\(select) WHERE date IN (\(placeholders(wholeMonths.count))) AND grain = 'month' AND \(condition)"
        let monthArguments = wholeMonths.map(SQLValue.text)
        try backend.read { session in
            // Month rows of whole months, by key and month; set aside when a day row shares both.
            var monthRows: [KeyMonth<Key>: Bool] = [:]
            if !wholeMonths.isEmpty {
                try session.scan(monthQuery, monthArguments) { row in
                    monthRows[KeyMonth(key: key(row), month: row.text(0, prefix: 7))] = true
                }
            }
            let days = "\(select) WHERE date BETWEEN ? AND ? AND grain = 'day' AND \(condition) ORDER BY date"
            try session.scan(days, [.text(start.iso8601), .text(end.iso8601)]) { row in
                let rowKey = key(row)
                if !monthRows.isEmpty {
                    let keyMonth = KeyMonth(key: rowKey, month: row.text(0, prefix: 7))
                    if monthRows[keyMonth] == true { monthRows[keyMonth] = false }
                }
                add(row, rowKey)
            }
            guard monthRows.values.contains(true) else { return }
            try session.scan(monthQuery, monthArguments) { row in
                let rowKey = key(row)
                if monthRows[KeyMonth(key: rowKey, month: row.text(0, prefix: 7))] == true { add(row, rowKey) }
            }
        }
    }
}

/// Two text columns of a row as a dictionary key: their bytes packed into integers when both
/// are short (store codes, vendor ids), else their text.
private enum RowPair: Hashable {
    case packed(UInt64, UInt64)
    case text(String, String)

    init(_ row: some ScannedRow, _ first: Int32, _ second: Int32) {
        if let a = row.packedText(first), let b = row.packedText(second) {
            self = .packed(a, b)
        } else {
            self = .text(row.text(first), row.text(second))
        }
    }
}

/// A key and a month (`YYYY-MM`): where a day row makes that month's month row stand aside.
private struct KeyMonth<Key: Hashable>: Hashable {
    let key: Key
    let month: String
}
