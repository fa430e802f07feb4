import Feeds
import GRDB

/// Writes feed records into their tables, inside the caller's transaction, one cached upsert
/// statement per table.
struct RecordWriter {
    private let runID: Int64
    private(set) var tally: UpsertTally
    /// The upsert statement of the file's table, prepared on the first record.
    private var prepared: Statement?

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
        let changed: Bool
        switch record {
        case .salesAudit(let r):
            changed = try Self.salesAudit.run(
                db,
                [.text(r.store), .text(r.date.iso8601), .real(r.totalSales), SQLValue(r.totalTransactions),
                 SQLValue(r.totalItems), SQLValue(r.ccpPct), SQLValue(r.gpPct), SQLValue(r.upt), SQLValue(r.ads), run],
                prepared: &prepared)
        case .creditApplications(let r):
            changed = try Self.credit.run(
                db, [.text(r.store), .text(r.date.iso8601), SQLValue(r.count), run], prepared: &prepared)
        case .crmIntakes(let r):
            changed = try Self.intakes.run(
                db, [.text(r.store), .text(r.date.iso8601), SQLValue(r.count), run], prepared: &prepared)
        case .birdeyeReviews(let r):
            changed = try Self.reviews.run(db, weeklyValues(r), prepared: &prepared)
        case .outboundCalls(let r):
            changed = try Self.calls.run(db, weeklyValues(r), prepared: &prepared)
        case .store(let r):
            changed = try Self.store.run(
                db, [.text(r.code), .text(r.name), SQLValue(r.region), .text(r.status)], prepared: &prepared)
            try replaceAliases(of: r, db)
        case .goal(let r):
            changed = try Self.goal.run(
                db, [.text(r.period), .text(r.scope), .text(r.metric), .text(r.date?.iso8601 ?? ""), .real(r.target)],
                prepared: &prepared)
        }
        tally.record(changed: changed)
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
