/// The KPI measures a feed table's rows add to (SPEC section 7), declared with the table: the
/// measure scans, explain's contributing rows, the checks' series and the rollups read a table's
/// measures from here instead of spelling its columns.
enum FeedMeasures: Sendable {
    /// The sales figures (`SalesFigureColumns`), added as `MeasureSums.addSales` adds them.
    case sales
    /// One count column summed into one measure; a store-week row also holds its seven days'
    /// counts (`FeedTables.weekdayColumns`), NULL when only the total is known.
    case count(column: String, measure: MeasureName)

    /// The columns a row's measures are read from, in the order `add` reads them.
    var columns: [String] {
        switch self {
        case .sales: return SalesFigureColumns.all
        case .count(let column, _): return [column]
        }
    }

    /// The measures the rows add to.
    var names: Set<MeasureName> {
        switch self {
        case .sales: return [.salesCents, .transactions, .items, .ccpWeighted, .ccpItems, .gpWeighted, .gpSalesCents]
        case .count(_, let measure): return [measure]
        }
    }

    /// The counted measure, for a count table.
    var countedMeasure: MeasureName? {
        guard case .count(_, let measure) = self else { return nil }
        return measure
    }

    /// Adds the measures of a row whose `columns` start at column `first`.
    @inline(__always) func add(_ row: some ScannedRow, from first: Int32, to sums: inout MeasureSums) {
        switch self {
        case .sales:
            sums.addSales(
                cents: row.int64(first), transactions: row.optionalInt64(first + 1),
                items: row.optionalInt64(first + 2), ccpMillionths: row.optionalInt64(first + 3),
                gpMillionths: row.optionalInt64(first + 4))
        case .count(_, let measure): sums[keyPath: measure.writablePath] += Int128(row.int64(first))
        }
    }

    /// The counts a row whose `columns` start at column `first` does not report: NULL
    /// transactions or items (unknown, SPEC section 26).
    func unreported(_ row: some ScannedRow, from first: Int32) -> [MeasureName] {
        guard case .sales = self else { return [] }
        return (row.optionalInt64(first + 1) == nil ? [.transactions] : [])
            + (row.optionalInt64(first + 2) == nil ? [.items] : [])
    }

    /// Whether a row whose `columns` start at column `first` reports what the CCP sums weigh:
    /// a sales row only with a CCP percent.
    func reportsCCP(_ row: some ScannedRow, from first: Int32) -> Bool {
        guard case .sales = self else { return true }
        return row.optionalInt64(first + 3) != nil
    }
}

/// The sales figures' columns both sales tables share, in `MeasureSums.addSales`'s order.
enum SalesFigureColumns {
    static let cents = "total_sales_cents"
    static let transactions = "total_transactions"
    static let items = "total_items"
    static let ccp = "ccp_pct_millionths"
    static let gp = "gp_pct_millionths"

    static let all = [cents, transactions, items, ccp, gp]
}
