import Feeds

/// Writes feed records into their tables, inside the caller's transaction, in batches of the
/// session's `upsertBatchSize` rows per upsert; `finish` writes the last partial batch.
struct RecordWriter<Session: SQLSession> {
    private let session: Session
    private let runID: Int64
    /// The file's table, whose upserts the counts are of.
    private let table: String
    /// Rows waiting for their batch: their statement and values, `columnCount` per row.
    private var pendingUpsert: UpsertStatement?
    /// The upsert of the file's table, once a row was written to it.
    private var fileUpsert: UpsertStatement?
    private var pending: PendingValues
    private var pendingRows = 0
    /// What this file's records add to the store-month rollups.
    private var rollups = RollupAccumulator()
    /// Rows written to the file's table (the rollups can simply add the file's sums when every
    /// one of them was an insert).
    private var rowsWritten = 0
    /// Records per store and their dates, for the ledger's per-store counts; it numbers the
    /// file's stores, for the rollups too.
    private var stores = RunStoreTally()
    /// Whether the file's table is keyed by a date and the store alone (the store-day and
    /// store-week tables), so that records whose dates ascend per store have distinct keys.
    private let keyedByDateAndStore: Bool
    /// The file's table when its feed counts events per store-day.
    private let dailyCountTable: FeedTable<DailyCountRecord>?
    /// The file's table when its feed counts events per store-week.
    private let weeklyCountTable: FeedTable<WeeklyCountRecord>?

    init(_ session: Session, table: String, runID: Int64) throws {
        self.session = session
        self.runID = runID
        self.table = table
        let feedTable = FeedTables.all.first { $0.name == table }
        keyedByDateAndStore = feedTable.map { $0.keyColumnNames == [$0.period.dateColumn, "store_code"] } ?? false
        dailyCountTable = feedTable as? FeedTable<DailyCountRecord>
        weeklyCountTable = feedTable as? FeedTable<WeeklyCountRecord>
        pending = PendingValues(capacity: min(session.upsertBatchSize, 4096) * 12)
    }

    /// Writes a record read at source row `row` (SPEC section 16: its provenance).
    mutating func write(_ record: FeedRecord, row: Int) throws {
        switch record {
        case .salesAudit(let r):
            rollups.add(r, store: stores.add(store: r.store, date: r.date))
            try add(r, row: row, to: FeedTables.salesAudit)
        case .dailyCount(let r):
            guard let countTable = dailyCountTable else { throw misplaced("a store-day's count") }
            try addCount(r, row: row, to: countTable)
        case .weeklyCount(let r):
            guard let countTable = weeklyCountTable else { throw misplaced("a store-week's counts") }
            try addCount(r, row: row, to: countTable)
        case .employeeSales(let r):
            stores.add(store: r.store, grain: r.grain)
            try add(r, row: row, to: FeedTables.employeeSales)
        case .merchSales(let r):
            stores.add(store: r.store, grain: r.grain)
            try add(r, row: row, to: FeedTables.merchSales)
        case .employeeName(let r):
            try keepLatestName(
                in: "employee", key: "employee_id", r.employeeId, name: r.name, asOf: r.asOf.iso8601, row: row)
        case .vendorName(let r):
            try keepLatestName(in: "vendor", key: "vendor_key", r.vendorKey, name: r.name, asOf: r.asOf, row: row)
        case .goal(let r):
            try startRow(ReferenceUpserts.goal)
            pending.add(r.period)
            pending.add(r.scope)
            pending.add(r.metric)
            pending.add(r.date?.iso8601 ?? "")
            pending.add(r.target)
            pending.add(runID)
            pending.add(row)
            try endRow()
        case .store(let r):
            // One at a time: each store's aliases are replaced right after it.
            try startRow(ReferenceUpserts.store)
            pending.add(r.code)
            pending.add(r.name)
            pending.add(r.region)
            pending.add(r.status)
            pending.add(r.opened?.iso8601)
            pending.add(r.closed?.iso8601)
            pending.add(runID)
            pending.add(row)
            try endRow()
            try flush()
            try replaceAliases(of: r)
        }
    }

    /// The error for a count record handed to the writer of a table that holds no such counts.
    private func misplaced(_ what: String) -> WarehouseError {
        WarehouseError(message: "\(table): \(what) cannot be written to this table")
    }

    /// Keeps an associate's or vendor's name when it is as late as the one stored (SPEC sections
    /// 9 and 10). Not a row of the file's table, so not in the file's upsert counts; a later run
    /// that re-sends the same name as of the same day holds it (SPEC section 16), and a row of
    /// the same run that changes nothing leaves it as it was.
    private func keepLatestName(in table: String, key: String, _ value: String, name: String, asOf: String, row: Int)
        throws
    {
        try session.execute(
            """
            INSERT INTO \(table) (\(key), name, name_as_of, ingest_run_id, source_row) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(\(key)) DO UPDATE SET name = excluded.name, name_as_of = excluded.name_as_of,
                ingest_run_id = excluded.ingest_run_id, source_row = excluded.source_row
            WHERE excluded.name_as_of >= \(table).name_as_of
                AND (excluded.name <> \(table).name OR excluded.name_as_of <> \(table).name_as_of
                    OR excluded.ingest_run_id <> \(table).ingest_run_id)
            """,
            [.text(value), .text(name), .text(asOf), .integer(runID), SQLValue(row)])
    }

    /// Adds a record's row to its feed table's batch.
    @inline(__always)
    private mutating func add<Record>(_ record: Record, row: Int, to table: FeedTable<Record>) throws {
        try startRow(table.upsert)
        table.bind(record, runID: runID, sourceRow: row, into: &pending)
        try endRow()
    }

    /// Adds a store-day's count to its table and to the rollups of the table's measure.
    private mutating func addCount(_ record: DailyCountRecord, row: Int, to table: FeedTable<DailyCountRecord>) throws {
        if let measure = table.measures?.countedMeasure {
            rollups.add(record, measure, store: stores.add(store: record.store, date: record.date))
        }
        try add(record, row: row, to: table)
    }

    /// Adds a store-week's counts to its table and to the rollups of the table's measure.
    private mutating func addCount(_ record: WeeklyCountRecord, row: Int, to table: FeedTable<WeeklyCountRecord>)
        throws
    {
        if let measure = table.measures?.countedMeasure {
            rollups.add(record, measure, store: stores.add(store: record.store, date: record.weekStart))
        }
        try add(record, row: row, to: table)
    }

    /// Adds the row of a record that binds its columns itself (`DirectRowBinding`).
    @inline(__always)
    private mutating func add<Record: DirectRowBinding>(_ record: Record, row: Int, to table: FeedTable<Record>)
        throws
    {
        try startRow(table.upsert)
        table.bindDirectly(record, runID: runID, sourceRow: row, into: &pending)
        try endRow()
    }

    /// Writes what is still pending and the run's per-store counts, and returns the file's counts
    /// and the run's history split of the file's table (empty when it wrote no history).
    mutating func finish() throws -> (counts: UpsertCounts, split: RunHistorySplit) {
        try flush()
        try requireDirectoryStores()
        var counts = try session.upsertCounts(table: table, distinctKeys: keysDistinctSoFar ? stores.records : nil)
        try rollups.apply(session, storeCodes: stores.storeCodes, onlyInserts: counts.inserted == rowsWritten)
        guard let history = HistoryTable.named(table), let fileUpsert else { return (counts, RunHistorySplit()) }
        let split =
            counts.updated + counts.unchanged == 0
            ? RunHistorySplit()
            : try RunHistorySplit.load(session, table: history, tracked: fileUpsert.values, run: runID)
        if session.countsNewHoldersAsUpdated {
            let resent = split.all.resent
            counts.updated -= resent
            counts.unchanged += resent
        }
        try RunStoreCounts.write(stores, of: runID, in: history, fileCounts: counts, split: split, session)
        return (counts, split)
    }

    /// Fails the file when one of its rows names a store outside the directory (the readers
    /// never emit one): the check of the feed tables' foreign key, once per store instead of
    /// once per row (`WarehouseBackend.ingestTransaction`).
    private func requireDirectoryStores() throws {
        let written = stores.storeCodes
        guard !written.isEmpty else { return }
        var directory = Set<String>()
        try session.scan("SELECT code FROM store", []) { directory.insert($0.text(0)) }
        if let outside = written.sorted().first(where: { !directory.contains($0) }) {
            throw WarehouseError(message: "\(table): store \(outside) is not in the store directory")
        }
    }

    /// Starts a row for `upsert`, first writing the pending rows if they are for another table.
    private mutating func startRow(_ upsert: UpsertStatement) throws {
        // The usual case, another row for the same table, copies nothing.
        guard pendingUpsert?.table != upsert.table else { return }
        if pendingUpsert != nil { try flush() }
        pendingUpsert = upsert
        if upsert.table == table { fileUpsert = upsert }
    }

    /// Ends the row just added.
    private mutating func endRow() throws {
        rowsWritten += 1
        pendingRows += 1
        if pendingRows >= session.upsertBatchSize { try flush() }
    }

    /// Whether every record written to the file's table so far had a key of its own: its
    /// dates ascended per store, in a table keyed by date and store alone.
    private var keysDistinctSoFar: Bool { keyedByDateAndStore && stores.datesAscendPerStore }

    private mutating func flush() throws {
        guard let upsert = pendingUpsert, pendingRows > 0 else { return }
        // The rows of this batch are in `stores` already.
        try session.upsert(upsert, pending, rows: pendingRows, keysNew: upsert.table == table && keysDistinctSoFar)
        pending.removeAll()
        pendingRows = 0
    }

    /// Replaces a store's aliases with the record's, keeping the ones it had in history when
    /// they change (SPEC section 16), so an undo can give them back.
    private func replaceAliases(of store: StoreRecord) throws {
        var current: [(key: String, alias: String)] = []
        try session.scan(
            "SELECT alias_key, alias FROM store_alias WHERE store_code = ? ORDER BY alias_key", [.text(store.code)]
        ) { row in
            current.append((row.text(0), row.text(1)))
        }
        let incoming = store.aliases.map { (key: TextNormalizer.matchKey($0), alias: $0) }.sorted { $0.key < $1.key }
        guard !current.elementsEqual(incoming, by: { $0.key == $1.key && $0.alias == $1.alias }) else { return }
        for old in current.isEmpty ? [nil] : current.map(Optional.some) {
            try session.execute(
                "INSERT INTO store_alias_history (replaced_by_run, store_code, alias_key, alias) VALUES (?, ?, ?, ?)",
                [.integer(runID), .text(store.code), SQLValue(old?.key), SQLValue(old?.alias)])
        }
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

/// The upserts of the reference tables (the feed tables' are declared in `FeedTables`).
enum ReferenceUpserts {
    static let store = UpsertStatement(
        table: "store", key: ["code"], values: ["name", "region", "status"] + V09StoreDates.columns,
        untracked: [HistoryTable.runColumn, HistoryTable.sourceRowColumn])
    static let goal = UpsertStatement(
        table: "goal", key: ["period", "scope", "metric", "date"], values: ["target"],
        untracked: [HistoryTable.runColumn, HistoryTable.sourceRowColumn])
}
