import Feeds
import GRDB

/// Writes feed records into their tables, inside the caller's transaction, in batches of
/// `batchSize` rows per upsert statement; `finish` writes the last partial batch.
struct RecordWriter {
    static let batchSize = 64

    private let runID: Int64
    private var tally: UpsertTally
    /// Rows waiting for their batch: their statement and values, `columnCount` per row.
    private var pendingUpsert: UpsertStatement?
    private var pending: [SQLValue] = []
    private var pendingRows = 0
    /// The full-batch statement, prepared once per file.
    private var batchStatement: Statement?

    private static let dailyColumns = (0..<7).map { "day_\($0)" }
    private static let salesAudit = UpsertStatement(
        table: "store_report", key: ["store_code", "date"],
        values: ["total_sales", "total_transactions", "total_items", "ccp_pct", "gp_pct", "upt", "ads"],
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
    private static let store = UpsertStatement(table: "store", key: ["code"], values: ["name", "region", "status"])
    private static let goal = UpsertStatement(table: "goal", key: ["period", "scope", "metric", "date"], values: ["target"])

    init(_ db: Database, table: String, runID: Int64) throws {
        self.runID = runID
        tally = try UpsertTally(db, table: table)
    }

    mutating func write(_ record: FeedRecord, _ db: Database) throws {
        switch record {
        case .salesAudit(let r):
            try enqueue(
                Self.salesAudit,
                [.text(r.store), .text(r.date.iso8601), .real(r.totalSales), SQLValue(r.totalTransactions),
                 SQLValue(r.totalItems), SQLValue(r.ccpPct), SQLValue(r.gpPct), SQLValue(r.upt), SQLValue(r.ads), run], db)
        case .creditApplications(let r):
            try enqueue(Self.credit, [.text(r.store), .text(r.date.iso8601), SQLValue(r.count), run], db)
        case .crmIntakes(let r):
            try enqueue(Self.intakes, [.text(r.store), .text(r.date.iso8601), SQLValue(r.count), run], db)
        case .birdeyeReviews(let r):
            try enqueue(Self.reviews, weeklyValues(r), db)
        case .outboundCalls(let r):
            try enqueue(Self.calls, weeklyValues(r), db)
        case .goal(let r):
            try enqueue(
                Self.goal, [.text(r.period), .text(r.scope), .text(r.metric), .text(r.date?.iso8601 ?? ""), .real(r.target)], db)
        case .store(let r):
            // One at a time: each store's aliases are replaced right after it.
            let statement = try db.cachedStatement(sql: Self.store.sql(rows: 1))
            let changed = try Self.store.run(db, [.text(r.code), .text(r.name), SQLValue(r.region), .text(r.status)], on: statement)
            tally.record(rows: 1, changed: changed)
            try replaceAliases(of: r, db)
        }
    }

    /// Writes what is still pending and returns the file's counts.
    mutating func finish(_ db: Database) throws -> UpsertCounts {
        try flush(db)
        return try tally.counts(db)
    }

    private mutating func enqueue(_ upsert: UpsertStatement, _ values: [SQLValue], _ db: Database) throws {
        if let current = pendingUpsert, current.table != upsert.table {
            try flush(db)
            batchStatement = nil
        }
        pendingUpsert = upsert
        pending.append(contentsOf: values)
        pendingRows += 1
        if pendingRows == Self.batchSize { try flush(db) }
    }

    private mutating func flush(_ db: Database) throws {
        guard let upsert = pendingUpsert, pendingRows > 0 else { return }
        let statement: Statement
        if pendingRows == Self.batchSize {
            statement = try batchStatement ?? db.makeStatement(sql: upsert.sql(rows: pendingRows))
            batchStatement = statement
        } else {
            statement = try db.makeStatement(sql: upsert.sql(rows: pendingRows))
        }
        let changed = try upsert.run(db, pending, on: statement)
        tally.record(rows: pendingRows, changed: changed)
        pending.removeAll(keepingCapacity: true)
        pendingRows = 0
    }

    private var run: SQLValue { .integer(runID) }

    private func weeklyValues(_ record: WeeklyCountRecord) -> [SQLValue] {
        var values: [SQLValue] = [.text(record.store), .text(record.weekStart.iso8601), SQLValue(record.total)]
        for day in 0..<7 { values.append(SQLValue(record.dailyCounts?[day])) }
        values.append(run)
        return values
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
