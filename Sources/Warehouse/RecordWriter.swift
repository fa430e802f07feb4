import Feeds
import SheetStream

/// Writes feed records into their tables, inside the caller's transaction, in batches of the
/// session's `upsertBatchSize` rows per upsert; `finish` writes the last partial batch.
struct RecordWriter<Session: SQLSession> {
    private let session: Session
    private let runID: Int64
    /// The file's table, whose upserts the counts are of.
    private let table: String
    /// Rows waiting for their batch: their statement and values, `columnCount` per row.
    private var pendingUpsert: UpsertStatement?
    private var pending: PendingValues
    private var pendingRows = 0
    /// Hashes of the pending rows' keys, when the session needs each batch's keys distinct (a
    /// collision only writes a batch early, which is always safe).
    private var pendingKeys = Set<Int>()
    /// What this file's records add to the store-month rollups.
    private var rollups = RollupAccumulator()
    /// Rows written to the file's table (the rollups can simply add the file's sums when every
    /// one of them was an insert).
    private var rowsWritten = 0

    init(_ session: Session, table: String, runID: Int64) throws {
        self.session = session
        self.runID = runID
        self.table = table
        pending = PendingValues(capacity: min(session.upsertBatchSize, 4096) * 12)
    }

    mutating func write(_ record: FeedRecord) throws {
        switch record {
        case .salesAudit(let r):
            rollups.add(r)
            try startRow(FeedUpserts.salesAudit)
            pending.add(r.store)
            pending.add(r.date)
            addFigures(r.figures)
            pending.add(r.figures.upt)
            pending.add(r.figures.adsCents)
            pending.add(runID)
        case .creditApplications(let r):
            rollups.add(r, \.applications)
            try startRow(FeedUpserts.credit)
            addDailyCount(r)
        case .crmIntakes(let r):
            rollups.add(r, \.intakes)
            try startRow(FeedUpserts.intakes)
            addDailyCount(r)
        case .birdeyeReviews(let r):
            rollups.add(r, \.reviews)
            try startRow(FeedUpserts.reviews)
            addWeeklyCounts(r)
        case .outboundCalls(let r):
            rollups.add(r, \.calls)
            try startRow(FeedUpserts.calls)
            addWeeklyCounts(r)
        case .employeeSales(let r):
            try startRow(FeedUpserts.employeeSales)
            addGrain(r.grain)
            pending.add(r.store)
            pending.add(r.employeeId)
            addFigures(r.figures)
            pending.add(r.grain.name)
            pending.add(runID)
        case .employeeName(let r):
            // Not a row of the file's table: it does not count in the file's upsert counts.
            try session.execute(
                """
                INSERT INTO employee (employee_id, name, name_as_of, ingest_run_id) VALUES (?, ?, ?, ?)
                ON CONFLICT(employee_id) DO UPDATE SET name = excluded.name, name_as_of = excluded.name_as_of,
                    ingest_run_id = excluded.ingest_run_id
                WHERE excluded.name_as_of >= employee.name_as_of
                """,
                [.text(r.employeeId), .text(r.name), .text(r.asOf.iso8601), .integer(runID)])
            return
        case .merchSales(let r):
            try startRow(FeedUpserts.merchSales)
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
            try startRow(FeedUpserts.goal)
            pending.add(r.period)
            pending.add(r.scope)
            pending.add(r.metric)
            pending.add(r.date?.iso8601 ?? "")
            pending.add(r.target)
        case .store(let r):
            // One at a time: each store's aliases are replaced right after it.
            try startRow(FeedUpserts.store)
            pending.add(r.code)
            pending.add(r.name)
            pending.add(r.region)
            pending.add(r.status)
            try endRow()
            try flush()
            try replaceAliases(of: r)
            return
        }
        try endRow()
    }

    /// Writes what is still pending and returns the file's counts.
    mutating func finish() throws -> UpsertCounts {
        try flush()
        let counts = try session.upsertCounts(table: table)
        try rollups.apply(session, onlyInserts: counts.inserted == rowsWritten)
        return counts
    }

    /// Starts a row for `upsert`, first writing the pending rows if they are for another table.
    private mutating func startRow(_ upsert: UpsertStatement) throws {
        // The usual case, another row for the same table, copies nothing.
        guard pendingUpsert?.table != upsert.table else { return }
        if pendingUpsert != nil { try flush() }
        pendingUpsert = upsert
    }

    /// Ends the row just added. When the session needs distinct keys per batch and the row may
    /// repeat a pending key, the rows before it are written first, so that it updates them in
    /// order, as it would row by row.
    private mutating func endRow() throws {
        if session.upsertsNeedDistinctKeys, let upsert = pendingUpsert {
            let first = pending.count - upsert.columnCount
            let key = pending.keyHash(from: first, count: upsert.key.count)
            if !pendingKeys.insert(key).inserted {
                let row = pending.takeLast(upsert.columnCount)
                try flush()
                pending.append(row)
                pendingKeys.insert(key)
            }
        }
        pendingRows += 1
        rowsWritten += 1
        if pendingRows == session.upsertBatchSize { try flush() }
    }

    private mutating func flush() throws {
        guard let upsert = pendingUpsert, pendingRows > 0 else { return }
        try session.upsert(upsert, pending, rows: pendingRows)
        pending.removeAll()
        pendingKeys.removeAll(keepingCapacity: true)
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

    private func replaceAliases(of store: StoreRecord) throws {
        try session.execute("DELETE FROM store_alias WHERE store_code = ?", [.text(store.code)])
        for alias in store.aliases {
            try session.execute(
                """
                INSERT INTO store_alias (alias_key, alias, store_code) VALUES (?, ?, ?)
                ON CONFLICT(alias_key) DO UPDATE SET alias = excluded.alias, store_code = excluded.store_code
                """,
                [.text(TextNormalizer.matchKey(alias)), .text(alias), .text(store.code)])
        }
    }
}

/// The upsert of each feed table and of the reference tables.
enum FeedUpserts {
    static let dailyColumns = (0..<7).map { "day_\($0)" }
    static let salesAudit = UpsertStatement(
        table: "store_report", key: ["store_code", "date"],
        values: [
            "total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths", "upt",
            "ads_cents",
        ],
        untracked: ["ingest_run_id"], referencesStore: true)
    static let credit = UpsertStatement(
        table: "credit_report", key: ["store_code", "date"], values: ["total_applications"], untracked: ["ingest_run_id"], referencesStore: true)
    static let intakes = UpsertStatement(
        table: "crm_intake_report", key: ["store_code", "date"], values: ["total_intakes"], untracked: ["ingest_run_id"], referencesStore: true)
    static let reviews = UpsertStatement(
        table: "birdeye_report", key: ["store_code", "week_start"], values: ["review_count"] + dailyColumns,
        untracked: ["ingest_run_id"], referencesStore: true)
    static let calls = UpsertStatement(
        table: "outbound_call_report", key: ["store_code", "week_start"], values: ["total_calls"] + dailyColumns,
        untracked: ["ingest_run_id"], referencesStore: true)
    static let employeeSales = UpsertStatement(
        table: "employee_report", key: ["date", "store_code", "employee_id"],
        values: ["total_sales_cents", "total_transactions", "total_items", "ccp_pct_millionths", "gp_pct_millionths"],
        untracked: ["grain", "ingest_run_id"], referencesStore: true)
    static let merchSales = UpsertStatement(
        table: "merch_report", key: ["date", "store_code", "vendor_key", "category"],
        values: ["vendor_name", "total_sales_cents", "total_items"], untracked: ["grain", "ingest_run_id"], referencesStore: true)
    static let store = UpsertStatement(table: "store", key: ["code"], values: ["name", "region", "status"])
    static let goal = UpsertStatement(table: "goal", key: ["period", "scope", "metric", "date"], values: ["target"])
}
