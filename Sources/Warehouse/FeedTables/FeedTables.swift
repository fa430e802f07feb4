import Feeds

/// The seven feed tables (SPEC sections 3, 9 and 10), each declared once. Adding a column is a
/// line here plus a migration that adds it (`ALTER TABLE … ADD COLUMN` with the column's
/// `definition`); `FeedTableSchemaTests` holds these declarations equal to the live schema on
/// both backends.
enum FeedTables {
    /// One store-day of the POS sales audit.
    static let salesAudit = FeedTable<SalesAuditRecord>(
        feed: .salesAudit, name: "store_report", period: .day,
        key: [.date("date", \.date), .store(\.store)],
        values: salesColumns(\.figures, countsKnown: false) + [
            .optionalReal("upt", \.figures.upt), .optionalInteger("ads_cents", \.figures.adsCents),
        ])

    /// Credit applications per store-day.
    static let creditApplications = dailyCountTable(.creditApps, "credit_report", count: "total_applications")

    /// CRM intakes per store-day.
    static let crmIntakes = dailyCountTable(.crmIntakes, "crm_intake_report", count: "total_intakes")

    /// Birdeye reviews per store-week.
    static let birdeyeReviews = weeklyCountTable(.birdeyeReviews, "birdeye_report", total: "review_count")

    /// Outbound calls per store-week.
    static let outboundCalls = weeklyCountTable(.outboundCalls, "outbound_call_report", total: "total_calls")

    /// An associate's sales at a store over a day or a month.
    static let employeeSales = FeedTable<EmployeeSalesRecord>(
        feed: .employeePerformance, name: "employee_report", period: .dayOrMonth,
        key: [.grainKey("date", \.grain), .store(\.store), .text("employee_id", \.employeeId)],
        values: salesColumns(\.figures, countsKnown: true),
        untracked: [grainColumn(\.grain)])

    /// A vendor's and/or category's sales at a store over a day or a month.
    static let merchSales = FeedTable<MerchSalesRecord>(
        feed: .merchSales, name: "merch_report", period: .dayOrMonth,
        key: [
            .grainKey("date", \.grain), .store(\.store), .text("vendor_key", \.vendorKey),
            .text("category", \.category),
        ],
        values: [
            .text("vendor_name", \.vendorName), .integer("total_sales_cents", \.totalSalesCents),
            .integer("total_items") { Int64($0.totalItems) },
        ],
        untracked: [grainColumn(\.grain)])

    /// The sales-audit columns the measures read (`MeasureSums.addSales`'s arguments, in order).
    static let salesMeasureColumns = [
        "total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths",
    ]

    /// Every feed table, in SPEC order of their feeds.
    static let all: [any FeedTableDescription] = [
        salesAudit, creditApplications, birdeyeReviews, crmIntakes, outboundCalls, employeeSales, merchSales,
    ]

    /// The tables the store-month rollups sum (SPEC section 13): the store-day and store-week tables.
    static var rolledUp: [any FeedTableDescription] { all.filter { $0.period != .dayOrMonth } }

    /// The table a feed's records land in; `nil` for the reference files (stores, goals).
    static func table(for feed: FeedID) -> (any FeedTableDescription)? { all.first { $0.feed == feed } }

    /// Sales, transactions, items, CCP and GP, in the column order both sales tables share;
    /// `countsKnown` when the feed requires transactions and items (associates), else they are
    /// NULL when unknown (the sales audit, SPEC section 26).
    private static func salesColumns<Record>(_ figures: @escaping (Record) -> SalesFigures, countsKnown: Bool)
        -> [FeedColumn<Record>]
    {
        [
            .integer("total_sales_cents") { figures($0).totalSalesCents },
            .count("total_transactions", known: countsKnown) { figures($0).totalTransactions },
            .count("total_items", known: countsKnown) { figures($0).totalItems },
            .optionalInteger("ccp_pct_millionths") { figures($0).ccpPctMillionths },
            .optionalInteger("gp_pct_millionths") { figures($0).gpPctMillionths },
        ]
    }

    /// The `grain` column (`day` or `month`) of a day-or-month table.
    private static func grainColumn<Record>(_ grain: @escaping (Record) -> ReportGrain) -> FeedColumn<Record> {
        .text("grain") { grain($0).name }
    }

    private static func dailyCountTable(_ feed: FeedID, _ name: String, count: String) -> FeedTable<DailyCountRecord> {
        FeedTable(
            feed: feed, name: name, period: .day, key: [.date("date", \.date), .store(\.store)],
            values: [.integer(count) { Int64($0.count) }])
    }

    /// A weekly table: the week's total, then the seven days' counts from `week_start` (NULL
    /// when the source gave only a total).
    private static func weeklyCountTable(_ feed: FeedID, _ name: String, total: String) -> FeedTable<WeeklyCountRecord>
    {
        let days: [FeedColumn<WeeklyCountRecord>] = (0..<7).map { day in
            .optionalInteger("day_\(day)") { record in record.dailyCounts.map { Int64($0[day]) } }
        }
        return FeedTable(
            feed: feed, name: name, period: .week, key: [.date("week_start", \.weekStart), .store(\.store)],
            values: [.integer(total) { Int64($0.total) }] + days)
    }
}

extension SalesAuditRecord: DirectRowBinding {
    /// `FeedTables.salesAudit`'s columns, in its order.
    func bindDeclaredColumns(into values: inout PendingValues) {
        values.add(date)
        values.add(store)
        values.add(figures.totalSalesCents)
        values.add(figures.totalTransactions)
        values.add(figures.totalItems)
        values.add(figures.ccpPctMillionths)
        values.add(figures.gpPctMillionths)
        values.add(figures.upt)
        values.add(figures.adsCents)
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
