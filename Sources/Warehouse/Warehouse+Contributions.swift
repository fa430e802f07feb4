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

    /// The name of the measure at `path`, `nil` for another key path.
    public init?(path: KeyPath<MeasureSums, Int128>) {
        guard let found = Self.allCases.first(where: { $0.path == path }) else { return nil }
        self = found
    }
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
        try backend.read { session in
            for source in ContributionSource.allCases where !source.measures.isDisjoint(with: measures) {
                let wanted = MeasureName.allCases.filter { measures.contains($0) && source.measures.contains($0) }
                let from = source.isWeekly ? start.adding(days: -6) : start
                try session.scan(
                    """
                    SELECT t.\(source.dateColumn), t.store_code, \(source.columns.map { "t.\($0)" }.joined(separator: ", ")),
                        t.ingest_run_id, t.source_row, r.path, r.sheet
                    FROM \(source.table) t LEFT JOIN ingest_run r ON r.id = t.ingest_run_id
                    WHERE t.\(source.dateColumn) BETWEEN ? AND ? ORDER BY t.\(source.dateColumn), t.store_code
                    """, [.text(from.iso8601), .text(end.iso8601)]
                ) { row in
                    let store = row.text(1)
                    guard stores.contains(store), let date = CivilDate(iso8601: row.text(0)) else { return }
                    let sums = source.sums(row, date: date, range: DateRange(start: start, end: end))
                    let values = wanted.map { ($0, sums[keyPath: $0.path]) }
                    guard values.contains(where: { $0.1 != 0 }) else { return }
                    let provenance = Int32(2 + source.columns.count)
                    try body(
                        ContributingRow(
                            table: source.table, store: store, date: date.iso8601,
                            file: row.optionalText(provenance + 2),
                            sheet: row.optionalText(provenance + 3), row: row.optionalInt64(provenance + 1),
                            run: row.optionalInt64(provenance), values: values))
                }
            }
        }
    }
}

/// A feed table whose rows add to the measures, and how one row adds.
private enum ContributionSource: CaseIterable {
    case sales, applications, intakes, reviews, calls

    var table: String {
        switch self {
        case .sales: return FeedTables.salesAudit.name
        case .applications: return FeedTables.creditApplications.name
        case .intakes: return FeedTables.crmIntakes.name
        case .reviews: return FeedTables.birdeyeReviews.name
        case .calls: return FeedTables.outboundCalls.name
        }
    }

    var isWeekly: Bool { self == .reviews || self == .calls }

    var dateColumn: String { isWeekly ? "week_start" : "date" }

    /// The columns read after the date and the store.
    var columns: [String] {
        let days = (0..<7).map { "day_\($0)" }
        switch self {
        case .sales: return FeedTables.salesMeasureColumns
        case .applications: return ["total_applications"]
        case .intakes: return ["total_intakes"]
        case .reviews: return ["review_count"] + days
        case .calls: return ["total_calls"] + days
        }
    }

    var measures: Set<MeasureName> {
        switch self {
        case .sales: return [.salesCents, .transactions, .items, .ccpWeighted, .ccpItems, .gpWeighted, .gpSalesCents]
        case .applications: return [.applications]
        case .intakes: return [.intakes]
        case .reviews: return [.reviews]
        case .calls: return [.calls]
        }
    }

    /// What the row (`date, store, columns…`) adds to the measures over `range`.
    func sums(_ row: some ScannedRow, date: CivilDate, range: DateRange) -> MeasureSums {
        var sums = MeasureSums()
        switch self {
        case .sales:
            sums.addSales(
                cents: row.int64(2), transactions: row.int64(3), items: row.int64(4),
                ccpMillionths: row.optionalInt64(5), gpMillionths: row.optionalInt64(6))
        case .applications: sums.applications = Int128(row.int64(2))
        case .intakes: sums.intakes = Int128(row.int64(2))
        case .reviews, .calls:
            let path: WritableKeyPath<MeasureSums, Int128> = self == .reviews ? \.reviews : \.calls
            if (0..<7).allSatisfy({ row.optionalInt64(3 + Int32($0)) != nil }) {
                for offset in 0..<7 where range.contains(date.adding(days: offset)) {
                    sums[keyPath: path] += Int128(row.int64(3 + Int32(offset)))
                }
            } else if range.contains(date) {
                sums[keyPath: path] = Int128(row.int64(2))
            }
        }
        return sums
    }
}
