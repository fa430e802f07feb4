import Feeds
import GRDB
import SheetStream

/// Writes feed records into their tables, inside the caller's transaction, in batches of
/// `batchSize` rows per upsert statement; `finish` writes the last partial batch.
struct RecordWriter {
    static let batchSize = 256

    private let runID: Int64
    private var tally: UpsertTally
    /// Rows waiting for their batch: their statement and values, `columnCount` per row.
    private var pendingUpsert: UpsertStatement?
    private var pending = PendingValues(capacity: RecordWriter.batchSize * 12)
    private var pendingRows = 0
    /// The full-batch statement, prepared once per file.
    private var batchStatement: Statement?
    /// What this file's records add to the store-month rollups.
    private var rollups = RollupAccumulator()
    /// Rows written to the file's table (the rollups can simply add the file's sums when every
    /// one of them was an insert).
    private var rowsWritten = 0

    private static let dailyColumns = (0..<7).map { "day_\($0)" }
    private static let salesAudit = UpsertStatement(
        table: "store_report", key: ["store_code", "date"],
        values: [
            "total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths", "upt",
            "ads_cents",
        ],
        untracked: ["ingest_run_id"])
    private static let credit = UpsertStatement(
        table: "credit_report", key: ["store_code", "date"], values: ["total_applications"], untracked: ["ingest_run_id"])
    private static let intakes = UpsertStatement(
        table: "crm_intake_report", key: ["store_code", "date"], values: ["total_intakes"], untracked: ["ingest_run_id"])
    private static let reviews = UpsertStatement(
        table: "birdeye_report", key: ["store_code", "week_start"], values: ["review_count"] + dailyColumns,
        untracked: ["ingest_run_id"])
    private static let calls = UpsertStatement(
        table: "outbound_call_report", key: ["store_code", "week_start"], values: ["total_calls"] + dailyColumns,
        untracked: ["ingest_run_id"])
    private static let employeeSales = UpsertStatement(
        table: "employee_report", key: ["date", "store_code", "employee_id"],
        values: ["total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths"],
        untracked: ["grain", "ingest_run_id"])
    private static let merchSales = UpsertStatement(
        table: "merch_report", key: ["date", "store_code", "vendor_key", "category"],
        values: ["vendor_name", "total_sales_cents", "total_items"], untracked: ["grain", "ingest_run_id"])
    private static let store = UpsertStatement(table: "store", key: ["code"], values: ["name", "region", "status"])
    private static let goal = UpsertStatement(table: "goal", key: ["period", "scope", "metric", "date"], values: ["target"])

    init(_ db: Database, table: String, runID: Int64) throws {
        self.runID = runID
        tally = try UpsertTally(db, table: table)
    }

    mutating func write(_ record: FeedRecord, _ db: Database) throws {
        switch record {
        case .salesAudit(let r):
            rollups.add(r)
            try startRow(Self.salesAudit, db)
            pending.add(r.store)
            pending.add(r.date)
            addFigures(r.figures)
            pending.add(r.figures.upt)
            pending.add(r.figures.adsCents)
            pending.add(runID)
        case .creditApplications(let r):
            rollups.add(r, \.applications)
            try startRow(Self.credit, db)
            addDailyCount(r)
        case .crmIntakes(let r):
            rollups.add(r, \.intakes)
            try startRow(Self.intakes, db)
            addDailyCount(r)
        case .birdeyeReviews(let r):
            rollups.add(r, \.reviews)
            try startRow(Self.reviews, db)
            addWeeklyCounts(r)
        case .outboundCalls(let r):
            rollups.add(r, \.calls)
            try startRow(Self.calls, db)
            addWeeklyCounts(r)
        case .employeeSales(let r):
            try startRow(Self.employeeSales, db)
            addGrain(r.grain)
            pending.add(r.store)
            pending.add(r.employeeId)
            addFigures(r.figures)
            pending.add(r.grain.name)
            pending.add(runID)
        case .employeeName(let r):
            // Not a row of the file's table: it does not count in the file's upsert counts.
            try db.cachedStatement(
                sql: """
                    INSERT INTO employee (employee_id, name, name_as_of, ingest_run_id) VALUES (?, ?, ?, ?)
                    ON CONFLICT(employee_id) DO UPDATE SET name = excluded.name, name_as_of = excluded.name_as_of,
                        ingest_run_id = excluded.ingest_run_id
                    WHERE excluded.name_as_of >= employee.name_as_of
                    """
            ).execute(arguments: [r.employeeId, r.name, r.asOf.iso8601, runID])
            return
        case .merchSales(let r):
            try startRow(Self.merchSales, db)
            addGrain(r.grain)
            pending.add(r.store)
            pending.add(r.vendorKey)
            pending.add(r.category)
            pending.add(r.vendorName)
            pending.add(r.totalSalesCents)
            pending.add(r.totalItems)
            pending.add(r.grain.name)
            pending.add(runID)
        case .goal(let r):
            try startRow(Self.goal, db)
            pending.add(r.period)
            pending.add(r.scope)
            pending.add(r.metric)
            pending.add(r.date?.iso8601 ?? "")
            pending.add(r.target)
        case .store(let r):
            // One at a time: each store's aliases are replaced right after it.
            try startRow(Self.store, db)
            pending.add(r.code)
            pending.add(r.name)
            pending.add(r.region)
            pending.add(r.status)
            try endRow(db)
            try flush(db)
            try replaceAliases(of: r, db)
            return
        }
        try endRow(db)
    }

    /// Writes what is still pending and returns the file's counts.
    mutating func finish(_ db: Database) throws -> UpsertCounts {
        try flush(db)
        let counts = try tally.counts(db)
        try rollups.apply(db, onlyInserts: counts.inserted == rowsWritten)
        return counts
    }

    /// Starts a row for `upsert`, first writing the pending rows if they are for another table.
    private mutating func startRow(_ upsert: UpsertStatement, _ db: Database) throws {
        // The usual case, another row for the same table, copies nothing.
        guard pendingUpsert?.table != upsert.table else { return }
        if pendingUpsert != nil {
            try flush(db)
            batchStatement = nil
        }
        pendingUpsert = upsert
    }

    private mutating func endRow(_ db: Database) throws {
        pendingRows += 1
        rowsWritten += 1
        if pendingRows == Self.batchSize { try flush(db) }
    }

    private mutating func flush(_ db: Database) throws {
        guard let upsert = pendingUpsert, pendingRows > 0 else { return }
        let statement: Statement
        if pendingRows == Self.batchSize {
            statement = try batchStatement ?? db.makeStatement(sql: upsert.sql(rows: pendingRows))
            batchStatement = statement
        } else {
            statement = try db.cachedStatement(sql: upsert.sql(rows: pendingRows))
        }
        let changed = try upsert.run(db, pending, on: statement)
        tally.record(rows: pendingRows, changed: changed)
        pending.removeAll()
        pendingRows = 0
    }

    /// A day or month row's `date` key (a day through the arena's fast date path).
    private mutating func addGrain(_ grain: ReportGrain) {
        if case .day(let date) = grain { pending.add(date) } else { pending.add(grain.key) }
    }

    /// Sales, transactions, items, CCP and GP, in the column order both sales tables share.
    private mutating func addFigures(_ figures: SalesFigures) {
        pending.add(figures.totalSalesCents)
        pending.add(figures.totalTransactions)
        pending.add(figures.totalItems)
        pending.add(figures.ccpPctMillionths)
        pending.add(figures.gpPctMillionths)
    }

    private mutating func addDailyCount(_ record: DailyCountRecord) {
        pending.add(record.store)
        pending.add(record.date)
        pending.add(record.count)
        pending.add(runID)
    }

    private mutating func addWeeklyCounts(_ record: WeeklyCountRecord) {
        pending.add(record.store)
        pending.add(record.weekStart)
        pending.add(record.total)
        for day in 0..<7 { pending.add(record.dailyCounts?[day]) }
        pending.add(runID)
    }

    private func replaceAliases(of store: StoreRecord, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM store_alias WHERE store_code = ?", arguments: [store.code])
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO store_alias (alias_key, alias, store_code) VALUES (?, ?, ?)
                ON CONFLICT(alias_key) DO UPDATE SET alias = excluded.alias, store_code = excluded.store_code
                """)
        for alias in store.aliases {
            try insert.execute(arguments: [TextNormalizer.matchKey(alias), alias, store.code])
        }
    }
}
