import Feeds

/// The seven feed tables (SPEC sections 3, 9 and 10), each declared once in a file of its own
/// (`SalesAuditTable.swift`, …) with its columns and its measures. Adding a column is a line
/// there plus a migration that adds it, its DDL written out as text; `FeedTableSchemaTests`
/// holds the declarations equal to the live schema on both backends.
enum FeedTables {
    /// Every feed table, in SPEC order of their feeds.
    static let all: [any FeedTableDescription] = [
        salesAudit, creditApplications, birdeyeReviews, crmIntakes, outboundCalls, employeeSales, merchSales,
    ]

    /// The tables of `period` whose rows add to the KPI measures, in the order of `all`.
    static func measured(_ period: FeedTablePeriod) -> [(table: any FeedTableDescription, measures: FeedMeasures)] {
        all.compactMap { table in
            guard table.period == period, let measures = table.measures else { return nil }
            return (table, measures)
        }
    }

    /// The seven days' count columns of a store-week table, from its week start on.
    static let weekdayColumns = (0..<7).map { "day_\($0)" }

    /// The tables the store-month rollups sum (SPEC section 13): the store-day and store-week tables.
    static var rolledUp: [any FeedTableDescription] { all.filter { $0.period != .dayOrMonth } }

    /// The table a feed's records land in; `nil` for the reference files (stores, goals).
    static func table(for feed: FeedID) -> (any FeedTableDescription)? { all.first { $0.feed == feed } }

    /// Sales, transactions, items, CCP and GP, in the column order both sales tables share;
    /// `countsKnown` when the feed requires transactions and items (associates), else they are
    /// NULL when unknown (the sales audit, SPEC section 26).
    static func salesColumns<Record>(_ figures: @escaping (Record) -> SalesFigures, countsKnown: Bool)
        -> [FeedColumn<Record>]
    {
        [
            .integer(SalesFigureColumns.cents) { figures($0).totalSalesCents },
            .count(SalesFigureColumns.transactions, known: countsKnown) { figures($0).totalTransactions },
            .count(SalesFigureColumns.items, known: countsKnown) { figures($0).totalItems },
            .optionalInteger(SalesFigureColumns.ccp) { figures($0).ccpPctMillionths },
            .optionalInteger(SalesFigureColumns.gp) { figures($0).gpPctMillionths },
        ]
    }

    /// The name of the column that says what a row covers, in the tables that mix grains.
    static let grainColumnName = "grain"

    /// The `grain` column (`day` or `month`) of a day-or-month table.
    static func grainColumn<Record>(_ grain: @escaping (Record) -> ReportGrain) -> FeedColumn<Record> {
        .text(grainColumnName) { grain($0).name }
    }

    /// A store-day table of event counts, summed into `measure`.
    static func dailyCountTable(_ feed: FeedID, _ name: String, count: String, measure: MeasureName)
        -> FeedTable<DailyCountRecord>
    {
        FeedTable(
            feed: feed, name: name, period: .day, key: [.date("date", \.date), .store(\.store)],
            values: [.integer(count) { Int64($0.count) }], measures: .count(column: count, measure: measure))
    }

    /// A weekly table: the week's total, then the seven days' counts from `week_start` (NULL
    /// when the source gave only a total).
    static func weeklyCountTable(_ feed: FeedID, _ name: String, total: String, measure: MeasureName)
        -> FeedTable<WeeklyCountRecord>
    {
        let days: [FeedColumn<WeeklyCountRecord>] = weekdayColumns.enumerated().map { day, column in
            .optionalInteger(column) { record in record.dailyCounts.map { Int64($0[day]) } }
        }
        return FeedTable(
            feed: feed, name: name, period: .week, key: [.date("week_start", \.weekStart), .store(\.store)],
            values: [.integer(total) { Int64($0.total) }] + days, measures: .count(column: total, measure: measure))
    }
}

extension FeedID {
    /// How often the feed is expected to send rows: weekly for the store-week tables' feeds,
    /// else daily (SPEC section 15).
    public var cadence: FeedCadence { FeedTables.table(for: self)?.period.cadence ?? .daily }

    /// The table a file of this feed is written to, whose upsert counts are the file's.
    var table: String {
        switch self {
        case .stores: return ReferenceUpserts.store.table
        case .goals: return ReferenceUpserts.goal.table
        default: return FeedTables.table(for: self)?.name ?? rawValue
        }
    }
}
