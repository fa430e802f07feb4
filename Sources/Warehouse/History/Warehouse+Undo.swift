import CivilCalendar
import Feeds

/// Why `ingest --undo` refused (SPEC section 16: exit 2): the run's id, state or later runs.
public struct UndoRefused: Error, CustomStringConvertible, Sendable {
    public let message: String
    /// Later runs that changed the same keys or ingested the same file, newest first (undone
    /// first with `--cascade`).
    public let blockingRuns: [Int64]

    public var description: String { message }
}

/// What an undo did.
public struct UndoOutcome: Sendable, Equatable {
    /// The runs undone, in the order they were (newest first).
    public var runs: [Int64] = []
    /// The ledger's undo runs, one per run undone, in the same order.
    public var undoRuns: [Int64] = []
    /// Rows deleted (the runs had inserted them).
    public var deleted = 0
    /// Rows given back their earlier values (not counting keys the run had re-sent unchanged,
    /// which only get their earlier run and source row back).
    public var restored = 0
}

extension Warehouse {
    /// Undoes `run` (SPEC section 16) in one transaction: deletes the keys it inserted and
    /// still holds, restores the earlier values (and run and source position) of the keys it
    /// updated and still holds, leaves a later run's values where that run holds a key (its
    /// history then leads past `run`), refreshes the rollups of the store-months it touched,
    /// marks it `undone` (so the same file can be ingested again), and records an undo run in
    /// the ledger that keeps in history what it removed. When later runs that are not undone
    /// ingested the same file or replaced the same store aliases, it throws `UndoRefused`
    /// naming them, unless `cascade`, which undoes them first, newest first. The caller holds
    /// the ingest lock.
    @discardableResult
    public func undo(run: Int64, cascade: Bool) throws -> UndoOutcome {
        try backend.write { session in
            let target = try RunToUndo.load(session, id: run)
            var order = [target]
            var blocking = try target.blockers(session)
            if !blocking.isEmpty && !cascade {
                throw UndoRefused(
                    message: "run \(run) cannot be undone: later run\(blocking.count == 1 ? "" : "s") "
                        + "\(blocking.map(String.init).joined(separator: ", ")) ingested the same file or replaced the same store aliases; "
                        + "undo \(blocking.count == 1 ? "it" : "them") first, or use --cascade",
                    blockingRuns: blocking)
            }
            // The runs to undo: every later run that blocks one of them, newest first.
            var seen: Set<Int64> = [run]
            while let next = blocking.popLast() {
                guard seen.insert(next).inserted else { continue }
                let later = try RunToUndo.load(session, id: next)
                order.append(later)
                blocking += try later.blockers(session)
            }
            var outcome = UndoOutcome()
            for target in order.sorted(by: { $0.id > $1.id }) {
                outcome.undoRuns.append(try target.undo(session, &outcome))
                outcome.runs.append(target.id)
            }
            return outcome
        }
    }

    /// Drops the history of runs that finished before `date` (`YYYY-MM-DD`, compared with their
    /// finish time): those runs can no longer be undone, and the ledger says so. Returns the
    /// history rows dropped.
    public func pruneHistory(before date: CivilDate) throws -> Int {
        try backend.write { session in
            let runs = "SELECT id FROM ingest_run WHERE finished_at < ? AND history_pruned = 0"
            var dropped = 0
            for table in HistoryTable.all {
                dropped += Int(
                    try session.integer(
                        "SELECT count(*) FROM \(table.history) WHERE \(HistoryTable.replacedByColumn) IN (\(runs))",
                        [.text(date.iso8601)]) ?? 0)
                try session.execute(
                    "DELETE FROM \(table.history) WHERE \(HistoryTable.replacedByColumn) IN (\(runs))",
                    [.text(date.iso8601)])
            }
            try session.execute(
                "DELETE FROM store_alias_history WHERE \(HistoryTable.replacedByColumn) IN (\(runs))",
                [.text(date.iso8601)])
            try session.execute(
                "UPDATE ingest_run SET history_pruned = 1 WHERE finished_at < ? AND history_pruned = 0",
                [.text(date.iso8601)])
            return dropped
        }
    }
}

/// One run to undo: its ledger row and the tables it wrote.
private struct RunToUndo {
    let id: Int64
    let sha256: String
    /// The tables whose rows carry this run: its feed's table (with the names of `employee` or
    /// `vendor` for associate and merch files), `goal` for a goals import, `store` for a stores import.
    let tables: [HistoryTable]
    let isStoresImport: Bool
    /// The first and last date key the run wrote, when it wrote feed rows.
    let dates: (first: String, last: String)?

    static func load(_ session: some SQLSession, id: Int64) throws -> RunToUndo {
        var found: (feed: String?, status: String, sha: String, pruned: Bool)?
        try session.scan("SELECT feed, status, sha256, history_pruned FROM ingest_run WHERE id = ?", [.integer(id)]) {
            row in
            found = (row.optionalText(0), row.text(1), row.text(2), row.int64(3) != 0)
        }
        guard let found else {
            throw UndoRefused(message: "there is no run \(id) in the ledger (see `ddkpi runs`)", blockingRuns: [])
        }
        if found.feed == UndoRunLedger.feed {
            throw UndoRefused(message: "run \(id) is an undo: an undo cannot itself be undone", blockingRuns: [])
        }
        switch found.status {
        case "ok": break
        case "undone": throw UndoRefused(message: "run \(id) is already undone", blockingRuns: [])
        default: throw UndoRefused(message: "run \(id) is \(found.status): it wrote no data to undo", blockingRuns: [])
        }
        if found.pruned {
            throw UndoRefused(
                message: "run \(id) can no longer be undone: its history was pruned (or it predates history)",
                blockingRuns: [])
        }
        let feed = found.feed.flatMap(FeedID.init(rawValue:))
        let feedTable = feed.flatMap(FeedTables.table(for:)).map { [$0.name] } ?? []
        let names: [String]
        switch feed.map({ FeedCatalog.definition($0).rows }) {
        case .storeDirectory?: names = ["store"]
        case .goals?: names = ["goal"]
        // An associate or merch file writes the names beside its rows.
        case .associateSales?: names = feedTable + ["employee"]
        case .merchSales?: names = feedTable + ["vendor"]
        case .salesAudit?, .dailyEvents?, .weeklyEvents?, nil: names = feedTable
        }
        var dates: (String, String)?
        try session.scan(
            "SELECT min(first_date), max(last_date) FROM ingest_run_store WHERE run_id = ?", [.integer(id)]
        ) { row in
            if let first = row.optionalText(0), let last = row.optionalText(1) { dates = (first, last) }
        }
        return RunToUndo(
            id: id, sha256: found.sha, tables: names.compactMap(HistoryTable.named), isStoresImport: feed == .stores,
            dates: dates)
    }

    /// Later runs, not undone, whose effect the undo could not keep exactly: one that ingested
    /// the same file, or (for a stores import) replaced the same stores' aliases; newest first.
    /// A later run that wrote the same keys does not block: it holds them (`keepLaterHolders`).
    func blockers(_ session: some SQLSession) throws -> [Int64] {
        var runs = Set<Int64>()
        if isStoresImport {
            try session.scan(
                """
                SELECT DISTINCT later.\(HistoryTable.replacedByColumn) FROM store_alias_history later
                JOIN store_alias_history this ON this.store_code = later.store_code
                WHERE this.\(HistoryTable.replacedByColumn) = ? AND later.\(HistoryTable.replacedByColumn) > ?
                """, [.integer(id), .integer(id)]
            ) { row in runs.insert(row.int64(0)) }
        }
        try session.scan(
            "SELECT id FROM ingest_run WHERE sha256 = ? AND id > ? AND status = 'ok'", [.text(sha256), .integer(id)]
        ) { row in
            runs.insert(row.int64(0))
        }
        return runs.sorted(by: >)
    }

    /// Puts back what the run changed, inside the caller's transaction, and returns the undo
    /// run that records it in the ledger.
    func undo(_ session: some SQLSession, _ outcome: inout UndoOutcome) throws -> Int64 {
        if isStoresImport { try refuseRemovingReferencedStores(session) }
        let undoRun = try UndoRunLedger.start(session, undoing: id)
        var touched = Set<StoreMonth>()
        var restored = 0
        var deleted = 0
        for table in tables {
            touched.formUnion(try touchedStoreMonths(of: table, session))
            try keepLaterHolders(of: table, undoRun: undoRun, session)
            let held = "\(HistoryTable.runColumn) = ?\(rangeCondition(table))"
            // What the run's rows hold now is kept in history, as replaced by the undo.
            let columns = (table.key + table.values).joined(separator: ", ")
            try session.execute(
                """
                INSERT INTO \(table.history) (\(columns), \(HistoryTable.replacedByColumn))
                SELECT \(columns), \(undoRun) FROM \(table.name) WHERE \(held)
                """, rangeArguments(table))
            // Keys the run updated get their earlier values, run and source row back, so what
            // still carries this run afterwards is what it inserted.
            let earlier = """
                \(table.history) AS earlier WHERE earlier.\(HistoryTable.replacedByColumn) = ?
                    AND \(table.keyMatch(table.name, "earlier")) AND \(table.name).\(HistoryTable.runColumn) = ?
                """
            let data = table.dataColumns
            restored += Int(
                try session.integer(
                    """
                    SELECT count(*) FROM \(table.name), \(earlier)
                        AND NOT (\(RunHistorySplit.sameValues(data, table.name, "earlier")))
                    """, [.integer(id), .integer(id)]) ?? 0)
            let assignments = table.values.map { "\($0) = earlier.\($0)" }.joined(separator: ", ")
            try session.execute(
                "UPDATE \(table.name) SET \(assignments) FROM \(earlier)", [.integer(id), .integer(id)])
            deleted += Int(
                try session.integer("SELECT count(*) FROM \(table.name) WHERE \(held)", rangeArguments(table)) ?? 0)
            try session.execute("DELETE FROM \(table.name) WHERE \(held)", rangeArguments(table))
            try session.execute(
                "DELETE FROM \(table.history) WHERE \(HistoryTable.replacedByColumn) = ?", [.integer(id)])
        }
        if isStoresImport { try restoreAliases(session) }
        if !touched.isEmpty { try Warehouse.refreshRollups(session, touched: touched) }
        try session.execute("UPDATE ingest_run SET status = 'undone' WHERE id = ?", [.integer(id)])
        try UndoRunLedger.finish(session, undoRun: undoRun, restored: restored, deleted: deleted)
        outcome.restored += restored
        outcome.deleted += deleted
        return undoRun
    }

    /// Where a later run holds a key this run wrote (it changed it, or re-sent it unchanged),
    /// the later run's values stay: its history entry, which holds this run's values, is
    /// replaced by the entry of what this run had replaced (the later run then restores that
    /// when undone), or dropped where this run inserted the key (the later run becomes its
    /// inserter). The entry of this run's values is kept, as replaced by the undo run.
    private func keepLaterHolders(of table: HistoryTable, undoRun: Int64, _ session: some SQLSession) throws {
        let replacedBy = HistoryTable.replacedByColumn
        let later = """
            FROM \(table.history) AS later WHERE later.\(HistoryTable.runColumn) = ? AND later.\(replacedBy) <> ?
                AND \(table.keyMatch("later", table.history))
            """
        try session.execute(
            """
            UPDATE \(table.history) SET \(replacedBy) = (SELECT later.\(replacedBy) \(later))
            WHERE \(replacedBy) = ? AND EXISTS (SELECT 1 \(later))
            """, [.integer(id), .integer(id), .integer(id), .integer(id), .integer(id)])
        try session.execute(
            """
            UPDATE \(table.history) SET \(replacedBy) = ?
            WHERE \(HistoryTable.runColumn) = ? AND \(replacedBy) <> ? AND \(replacedBy) <> ?
            """, [.integer(undoRun), .integer(id), .integer(id), .integer(undoRun)])
    }

    /// `AND date BETWEEN …` for a feed table when the run's dates are known: its rows lie there.
    private func rangeCondition(_ table: HistoryTable) -> String {
        guard let period = table.period, dates != nil else { return "" }
        return " AND \(period.dateColumn) BETWEEN ? AND ?"
    }

    private func rangeArguments(_ table: HistoryTable) -> [SQLValue] {
        guard table.period != nil, let dates else { return [.integer(id)] }
        return [.integer(id), .text(dates.first), .text(dates.last)]
    }

    /// The store-months whose rollups the run's rows feed (a week's both months).
    private func touchedStoreMonths(of table: HistoryTable, _ session: some SQLSession) throws -> Set<StoreMonth> {
        guard let period = table.period, FeedTables.rolledUp.contains(where: { $0.name == table.name }) else {
            return []
        }
        var touched = Set<StoreMonth>()
        let select = "SELECT DISTINCT store_code, \(period.dateColumn)"
        for (sql, arguments) in [
            (
                "\(select) FROM \(table.name) WHERE \(HistoryTable.runColumn) = ?\(rangeCondition(table))",
                rangeArguments(table)
            ),
            ("\(select) FROM \(table.history) WHERE \(HistoryTable.replacedByColumn) = ?", [SQLValue.integer(id)]),
        ] {
            try session.scan(sql, arguments) { row in
                guard let date = CivilDate(iso8601: row.text(1)) else { return }
                for day in [date, date.adding(days: period.daysAfterKey)] {
                    touched.insert(StoreMonth(store: row.text(0), month: day.iso8601Month))
                }
            }
        }
        return touched
    }

    /// A stores import whose undo would delete a store that feed rows reference is refused.
    private func refuseRemovingReferencedStores(_ session: some SQLSession) throws {
        var referenced: [String] = []
        let uses = FeedTables.all.map { "EXISTS (SELECT 1 FROM \($0.name) WHERE store_code = store.code)" }.joined(
            separator: " OR ")
        try session.scan(
            """
            SELECT code FROM store WHERE \(HistoryTable.runColumn) = ?
                AND NOT EXISTS (SELECT 1 FROM store_history WHERE \(HistoryTable.replacedByColumn) = ? AND store_history.code = store.code)
                AND (\(uses))
            ORDER BY code
            """, [.integer(id), .integer(id)]
        ) { row in referenced.append(row.text(0)) }
        guard referenced.isEmpty else {
            throw UndoRefused(
                message: "run \(id) cannot be undone: it added store\(referenced.count == 1 ? "" : "s") "
                    + "\(referenced.joined(separator: ", ")), which feed rows reference",
                blockingRuns: [])
        }
    }

    /// Gives the stores this import wrote their aliases from before it.
    private func restoreAliases(_ session: some SQLSession) throws {
        let stores = "SELECT DISTINCT store_code FROM store_alias_history WHERE \(HistoryTable.replacedByColumn) = ?"
        try session.execute("DELETE FROM store_alias WHERE store_code IN (\(stores))", [.integer(id)])
        try session.execute(
            """
            INSERT INTO store_alias (alias_key, alias, store_code)
            SELECT alias_key, alias, store_code FROM store_alias_history
            WHERE \(HistoryTable.replacedByColumn) = ? AND alias_key IS NOT NULL
                AND store_code IN (SELECT code FROM store)
            """, [.integer(id)])
        try session.execute(
            "DELETE FROM store_alias_history WHERE \(HistoryTable.replacedByColumn) = ?", [.integer(id)])
    }
}
