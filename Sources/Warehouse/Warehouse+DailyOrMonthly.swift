import Feeds
import GRDB
import SheetStream

/// An associate at a store (a row of the employees report before ranking).
public struct EmployeeStoreKey: Hashable, Sendable {
    public var employeeId: String
    public var store: String

    public init(employeeId: String, store: String) {
        self.employeeId = employeeId
        self.store = store
    }
}

/// A vendor or category key at a store.
public struct MerchStoreKey: Hashable, Sendable {
    public var store: String
    /// The vendor key or the category.
    public var key: String

    public init(store: String, key: String) {
        self.store = store
        self.key = key
    }
}

/// What the merch report sums per key: sales, items, and the name on the latest row read.
public struct MerchSums: Equatable, Sendable {
    public var salesCents: Int128 = 0
    public var items: Int128 = 0
    /// The name on the row with the latest date (ties: the later row read).
    public var name = ""
    public var nameAsOf = ""

    public init() {}
}

/// Which dimension of `merch_report` a report ranks.
public enum MerchDimension: String, Sendable, CaseIterable {
    case vendor, category
}

extension Warehouse {
    /// Sales measures per associate and store over `[start, end]` (SPEC section 9): daily rows
    /// in the range, plus the monthly row of each whole month in the range for which that
    /// associate and store have no daily rows.
    public func employeeMeasures(from start: CivilDate, through end: CivilDate) throws -> [EmployeeStoreKey: MeasureSums] {
        var sums: [EmployeeStoreKey: MeasureSums] = [:]
        try readDayOrMonthRows(
            table: "employee_report",
            columns: ["employee_id", "total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths"],
            from: start, through: end,
            key: { row, store in EmployeeStoreKey(employeeId: row[2], store: store) },
            add: { row, key in
                sums[key, default: MeasureSums()].addSales(
                    cents: row[3], transactions: row[4], items: row[5], ccpMillionths: row[6], gpMillionths: row[7])
            })
        return sums
    }

    /// The associates' names: the name on each id's row with the latest date (ties: the later ingest).
    public func employeeNames() throws -> [String: String] {
        try pool.read { db in
            var names: [String: String] = [:]
            for row in try GRDB.Row.fetchAll(db, sql: "SELECT employee_id, name FROM employee") { names[row[0]] = row[1] }
            return names
        }
    }

    /// Sales and items per store and vendor key or category over `[start, end]`, by SPEC
    /// section 9's day-or-month rule per store, month and key; rows without the dimension take no part.
    public func merchMeasures(from start: CivilDate, through end: CivilDate, by dimension: MerchDimension) throws
        -> [MerchStoreKey: MerchSums]
    {
        var sums: [MerchStoreKey: MerchSums] = [:]
        let keyColumn = dimension == .vendor ? "vendor_key" : "category"
        let nameColumn = dimension == .vendor ? "vendor_name" : "category"
        try readDayOrMonthRows(
            table: "merch_report", columns: [keyColumn, nameColumn, "total_sales_cents", "total_items"],
            condition: "\(keyColumn) <> ''", from: start, through: end,
            key: { row, store in MerchStoreKey(store: store, key: row[2]) },
            add: { row, key in
                var value = sums[key] ?? MerchSums()
                value.salesCents += Int128(row[4] as Int64)
                value.items += Int128(row[5] as Int64)
                let asOf: String = row[0]
                // A month row (`YYYY-MM`) sorts before its days: it counts as of the month's end.
                let comparable = asOf.count == 7 ? asOf + "-31" : asOf
                if comparable >= value.nameAsOf {
                    value.name = row[3]
                    value.nameAsOf = comparable
                }
                sums[key] = value
            })
        return sums
    }

    /// Reads a table whose rows are days (`date` = `YYYY-MM-DD`, `grain` `day`) or whole months
    /// (`YYYY-MM`, `grain` `month`) over `[start, end]`: every day row in the range, then the month
    /// rows of the months wholly inside the range whose key has no day row in that month.
    ///
    /// `add` receives rows as `date, store_code, columns…` with their key.
    private func readDayOrMonthRows<Key: Hashable>(
        table: String, columns: [String], condition: String = "1", from start: CivilDate, through end: CivilDate,
        key: (GRDB.Row, String) -> Key, add: (GRDB.Row, Key) -> Void
    ) throws {
        let wholeMonths = CivilDate.monthParts(from: start, through: end)
            .filter { CivilDate.isWholeMonth(from: $0.start, through: $0.end) }.map(\.month)
        let select = "SELECT date, store_code, \(columns.joined(separator: ", ")) FROM \(table)"
        try pool.read { db in
            var withDays = Set<KeyMonth<Key>>()
            let days = try GRDB.Row.fetchCursor(
                db.cachedStatement(sql: "\(select) WHERE date BETWEEN ? AND ? AND grain = 'day' AND \(condition)"),
                arguments: [start.iso8601, end.iso8601])
            while let row = try days.next() {
                let date: String = row[0]
                let rowKey = key(row, row[1])
                if !wholeMonths.isEmpty { withDays.insert(KeyMonth(key: rowKey, month: date.prefix(7))) }
                add(row, rowKey)
            }
            guard !wholeMonths.isEmpty else { return }
            let placeholders = wholeMonths.map { _ in "?" }.joined(separator: ", ")
            let months = try GRDB.Row.fetchCursor(
                db, sql: "\(select) WHERE date IN (\(placeholders)) AND grain = 'month' AND \(condition)",
                arguments: StatementArguments(wholeMonths))
            while let row = try months.next() {
                let date: String = row[0]
                let rowKey = key(row, row[1])
                guard !withDays.contains(KeyMonth(key: rowKey, month: Substring(date))) else { continue }
                add(row, rowKey)
            }
        }
    }
}

/// A key and a month (`YYYY-MM`): where a day row makes that month's month row stand aside.
private struct KeyMonth<Key: Hashable>: Hashable {
    let key: Key
    let month: Substring
}
