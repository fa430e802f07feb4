import CivilCalendar
import Feeds

/// A measure of `MeasureSums` by name (SPEC section 17's component names).
public enum MeasureName: String, Sendable, CaseIterable {
    case salesCents, transactions, items, ccpWeighted, ccpItems, gpWeighted, gpSalesCents
    case applications, reviews, intakes, calls

    /// Where the measure is kept in `MeasureSums`.
    public var path: KeyPath<MeasureSums, Int128> { writablePath }

    /// Where the measure is kept in `MeasureSums`, to set it.
    public var writablePath: WritableKeyPath<MeasureSums, Int128> {
        switch self {
        case .salesCents: return \.salesCents
        case .transactions: return \.transactions
        case .items: return \.items
        case .ccpWeighted: return \.ccpWeighted
        case .ccpItems: return \.ccpItems
        case .gpWeighted: return \.gpWeighted
        case .gpSalesCents: return \.gpSalesCents
        case .applications: return \.applications
        case .reviews: return \.reviews
        case .intakes: return \.intakes
        case .calls: return \.calls
        }
    }

    /// The name of the measure at `path`, `nil` for another key path; a sum narrowed to the rows
    /// that report a ratio's parts (`salesCentsWithTransactions`) is named as the measure it narrows.
    public init?(path: KeyPath<MeasureSums, Int128>) {
        if let found = Self.allCases.first(where: { $0.path == path }) {
            self = found
        } else if let narrowed = Self.narrowed.first(where: { $0.path == path }) {
            self = narrowed.name
        } else {
            return nil
        }
    }

    /// The sums over the rows that report a ratio's parts, the measure each narrows, and the
    /// counts a row must report to add to it.
    static let narrowed: [(path: KeyPath<MeasureSums, Int128>, name: MeasureName, needs: [MeasureName])] = [
        (\.salesCentsWithTransactions, .salesCents, [.transactions]),
        (\.itemsWithTransactions, .items, [.transactions, .items]),
        (\.transactionsWithItems, .transactions, [.transactions, .items]),
    ]

    /// The counts (`transactions`, `items`) a row must report to add to the sum at `path`.
    static func countsNeeded(by path: KeyPath<MeasureSums, Int128>) -> [MeasureName] {
        if let narrowed = narrowed.first(where: { $0.path == path }) { return narrowed.needs }
        switch path {
        case \MeasureSums.transactions: return [.transactions]
        case \MeasureSums.items, \MeasureSums.ccpWeighted, \MeasureSums.ccpItems: return [.items]
        default: return []
        }
    }
}

/// A measure as a metric reads it: its name, and the sum read (the measure's own, or narrowed
/// to the rows that report a ratio's parts).
public struct ReadMeasure: Sendable {
    public var name: MeasureName
    public var path: any KeyPath<MeasureSums, Int128> & Sendable

    public init(name: MeasureName, path: any KeyPath<MeasureSums, Int128> & Sendable) {
        self.name = name
        self.path = path
    }

    /// The counts (`transactions`, `items`) a row must report to add to this sum.
    public var countsNeeded: [MeasureName] { MeasureName.countsNeeded(by: path) }
}

/// One feed-table row that adds to a metric's measures (SPEC section 17): its table, store and
/// date (a week's first day for a weekly row), what it adds to each measure (exact stored
/// units), and where it came from.
public struct ContributingRow: Sendable {
    public var table: String
    public var store: String
    public var date: String
    /// The ledger's path of the run that wrote the row (`nil` for a row from before provenance).
    public var file: String?
    public var sheet: String?
    /// The 1-based sheet row or CSV record.
    public var row: Int64?
    public var run: Int64?
    public var values: [(measure: MeasureName, value: Int128)]
    /// The counts the explained measures need that this row does not report (unknown: it adds
    /// nothing to the sums that need them, SPEC section 26).
    public var unknown: [MeasureName] = []
    /// Whether the export marked the store closed that day (its `Open` column, SPEC section 26).
    public var closed = false
}

extension Warehouse {
    /// The months of `[start, end]` whose store-month rollups serve its measures (whole months,
    /// and months the range covers more than half of, less their other days: `MeasurePlan`),
    /// as `YYYY-MM`.
    public func monthsServedByRollups(from start: CivilDate, through end: CivilDate) -> [String] {
        let range = DateRange(start: start, end: end)
        return MeasurePlan(parts: [range], usesRollups: usesRollups).rollupMonths
    }

    /// Streams, table by table in date and store order, every row of the feed tables that adds
    /// something to `measures` over `[start, end]` at `stores`: always from the feed tables,
    /// whatever the rollups serve. Weekly rows count their days in the range when the days are
    /// known, else their whole week when it starts in the range, as the measures do.
    public func contributingRows(
        _ measures: Set<MeasureName>, from start: CivilDate, through end: CivilDate, stores: Set<String>,
        _ body: (ContributingRow) throws -> Void
    ) throws {
        let read = MeasureName.allCases.filter(measures.contains).map { ReadMeasure(name: $0, path: $0.path) }
        try contributingRows(read, from: start, through: end, stores: stores, body)
    }

    /// `contributingRows(_:from:through:stores:_:)` of measures read as a metric reads them: a
    /// ratio's sums narrowed to the rows that report its parts, the rows that lack a needed count
    /// listed with it as unknown.
    public func contributingRows(
        _ measures: [ReadMeasure], from start: CivilDate, through end: CivilDate, stores: Set<String>,
        _ body: (ContributingRow) throws -> Void
    ) throws {
        let names = Set(measures.map(\.name))
        try backend.read { session in
            for source in ContributionSource.all where !source.measures.names.isDisjoint(with: names) {
                let wanted = measures.filter { source.measures.names.contains($0.name) }
                let from = source.isWeekly ? start.adding(days: -6) : start
                try session.scan(
                    """
                    SELECT t.\(source.dateColumn), t.store_code, \(source.columns.map { "t.\($0)" }.joined(separator: ", ")),
                        t.ingest_run_id, t.source_row, r.path, r.sheet
                    FROM \(source.table.name) t LEFT JOIN ingest_run r ON r.id = t.ingest_run_id
                    WHERE t.\(source.dateColumn) BETWEEN ? AND ? ORDER BY t.\(source.dateColumn), t.store_code
                    """, [.text(from.iso8601), .text(end.iso8601)]
                ) { row in
                    let store = row.text(1)
                    guard stores.contains(store), let date = CivilDate(iso8601: row.text(0)) else { return }
                    let sums = source.sums(row, date: date, range: DateRange(start: start, end: end))
                    let unreported = source.measures.unreported(row, from: 2)
                    var unknown: [MeasureName] = []
                    var values: [(measure: MeasureName, value: Int128)] = []
                    for measure in wanted {
                        let missing = MeasureName.countsNeeded(by: measure.path).filter(unreported.contains)
                        // CCP's sums need items only on rows that report CCP.
                        let reportsCCP = source.measures.reportsCCP(row, from: 2)
                        let isCCP = measure.name == .ccpWeighted || measure.name == .ccpItems
                        if missing.isEmpty {
                            values.append((measure.name, sums[keyPath: measure.path]))
                        } else if !isCCP || reportsCCP {
                            unknown += missing.filter { !unknown.contains($0) }
                        }
                    }
                    let provenance = Int32(2 + source.columns.count)
                    let closed = source.closedColumn != nil && row.optionalInt64(provenance - 1) == 1
                    guard values.contains(where: { $0.1 != 0 }) || !unknown.isEmpty || closed else { return }
                    try body(
                        ContributingRow(
                            table: source.table.name, store: store, date: date.iso8601,
                            file: row.optionalText(provenance + 2),
                            sheet: row.optionalText(provenance + 3), row: row.optionalInt64(provenance + 1),
                            run: row.optionalInt64(provenance), values: values, unknown: unknown, closed: closed))
                }
            }
        }
    }
}

extension Warehouse {
    /// The measures among `measures` (read as a metric reads them) that no sales-audit row of
    /// `[start, end]` at `stores` reports, though such rows exist: unknown, not 0 (SPEC section 26).
    public func unreported(
        _ measures: [ReadMeasure], from start: CivilDate, through end: CivilDate, stores: Set<String>
    )
        throws -> Set<MeasureName>
    {
        let needs = measures.map { (name: $0.name, counts: MeasureName.countsNeeded(by: $0.path)) }
        guard needs.contains(where: { !$0.counts.isEmpty }) else { return [] }
        var rows = 0
        var reporting: [[MeasureName]: Int] = [:]
        try backend.read { session in
            try session.scan(
                """
                SELECT store_code, \(SalesFigureColumns.transactions), \(SalesFigureColumns.items)
                FROM \(FeedTables.salesAudit.name) WHERE date BETWEEN ? AND ?
                """, [.text(start.iso8601), .text(end.iso8601)]
            ) { row in
                guard stores.contains(row.text(0)) else { return }
                rows += 1
                let reported: [MeasureName: Bool] = [
                    .transactions: row.optionalInt64(1) != nil, .items: row.optionalInt64(2) != nil,
                ]
                for need in needs where need.counts.allSatisfy({ reported[$0] == true }) {
                    reporting[need.counts, default: 0] += 1
                }
            }
        }
        guard rows > 0 else { return [] }
        return Set(needs.filter { !$0.counts.isEmpty && reporting[$0.counts, default: 0] == 0 }.map(\.name))
    }
}

/// A feed table whose rows add to the measures, and how one row adds.
private struct ContributionSource {
    let table: any FeedTableDescription
    let measures: FeedMeasures
    /// The column that says the export marked the day closed, where the table has one (the sales audit).
    let closedColumn: String?
    /// The columns read after the date and the store: the measures', then a week's days or the
    /// closed flag.
    let columns: [String]

    init(table: any FeedTableDescription, measures: FeedMeasures) {
        self.table = table
        self.measures = measures
        closedColumn = table.declares(SalesAuditColumns.closed) ? SalesAuditColumns.closed : nil
        columns =
            measures.columns + (table.period == .week ? FeedTables.weekdayColumns : [])
            + (closedColumn.map { [$0] } ?? [])
    }

    /// The measured tables: the store-day tables, then the store-week ones.
    static var all: [ContributionSource] {
        (FeedTables.measured(.day) + FeedTables.measured(.week)).map { ContributionSource(table: $0, measures: $1) }
    }

    var isWeekly: Bool { table.period == .week }

    var dateColumn: String { table.period.dateColumn }

    /// What the row (`date, store, columns…`) adds to the measures over `range`: a week's days
    /// in the range when they are known, else its total when it starts in the range.
    func sums(_ row: some ScannedRow, date: CivilDate, range: DateRange) -> MeasureSums {
        var sums = MeasureSums()
        guard isWeekly, let measure = measures.countedMeasure else {
            measures.add(row, from: 2, to: &sums)
            return sums
        }
        if (0..<7).allSatisfy({ row.optionalInt64(3 + Int32($0)) != nil }) {
            for offset in 0..<7 where range.contains(date.adding(days: offset)) {
                sums[keyPath: measure.writablePath] += Int128(row.int64(3 + Int32(offset)))
            }
        } else if range.contains(date) {
            measures.add(row, from: 2, to: &sums)
        }
        return sums
    }
}
