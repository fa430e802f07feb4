import Feeds
import GRDB

/// Writes feed records into their tables, inside the caller's transaction, one cached upsert
/// statement per table.
struct RecordWriter {
    private let runID: Int64
    private(set) var tally: UpsertTally

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
                [r.store, r.date.iso8601, r.totalSales, r.totalTransactions, r.totalItems, r.ccpPct, r.gpPct, r.upt, r.ads, runID])
        case .creditApplications(let r):
            changed = try Self.credit.run(db, [r.store, r.date.iso8601, r.count, runID])
        case .crmIntakes(let r):
            changed = try Self.intakes.run(db, [r.store, r.date.iso8601, r.count, runID])
        case .birdeyeReviews(let r):
            changed = try Self.reviews.run(db, Self.weeklyArguments(r, runID: runID))
        case .outboundCalls(let r):
            changed = try Self.calls.run(db, Self.weeklyArguments(r, runID: runID))
        case .store(let r):
            changed = try Self.store.run(db, [r.code, r.name, r.region, r.status])
            try replaceAliases(of: r, db)
        case .goal(let r):
            changed = try Self.goal.run(db, [r.period, r.scope, r.metric, r.date?.iso8601 ?? "", r.target])
        }
        tally.record(changed: changed)
    }

    private static func weeklyArguments(_ record: WeeklyCountRecord, runID: Int64) -> StatementArguments {
        var values: [(any DatabaseValueConvertible)?] = [record.store, record.weekStart.iso8601, record.total]
        for day in 0..<7 { values.append(record.dailyCounts?[day]) }
        values.append(runID)
        return StatementArguments(values)
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
