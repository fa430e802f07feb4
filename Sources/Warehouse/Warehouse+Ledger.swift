import Feeds

/// One row of the `ingest_run` ledger, with its stored rejects.
public struct IngestRun: Sendable, Codable, Equatable {
    public var id: Int64
    /// The file the run read; `nil` for an undo run.
    public var path: String?
    public var size: Int64
    public var sha256: String
    public var feed: String?
    public var startedAt: String
    public var finishedAt: String
    public var status: String
    /// The file's rows read, skipped and rejected; `nil` for a reader `ddkpi access` scoped, whom
    /// the ledger shows only what the run did to its stores' rows (`inserted`, `updated`,
    /// `unchanged`).
    public var read: Int?
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public var skipped: Int?
    public var rejected: Int?
    public var error: String?
    public var rejects: [Reject]
    /// The sheet the run read (a CSV's name), when it read one.
    public var sheet: String?
    /// Whether the run's history was pruned (or it predates history), so it cannot be undone.
    public var historyPruned: Bool
    /// The run an undo run undid.
    public var undoesRun: Int64?
    /// The keys an undo run deleted (the undone run had inserted them).
    public var deleted: Int
    /// Who ran it (the PostgreSQL session user, or the operating-system user on SQLite); `nil`
    /// for a run from before the ledger recorded it.
    public var actor: String?
    /// The host it ran on; `nil` as `actor` is.
    public var host: String?

    /// `actor@host`, as people read who ran it; `?` for a run from before the ledger recorded it.
    public var by: String {
        guard let actor else { return "?" }
        return host.map { $0.isEmpty ? actor : "\(actor)@\($0)" } ?? actor
    }

    /// What the run read, as people read it: the file's path, the run an undo undid, or what an
    /// `access` run granted or revoked.
    public var source: String {
        path ?? undoesRun.map { "undo of run \($0)" } ?? (feed == "access" ? sheet : nil) ?? ""
    }
}

extension Warehouse {
    /// The most recent ledger rows, newest first.
    public func runs(limit: Int) throws -> [IngestRun] {
        let scoped = try readerScope() != nil
        return try backend.read { session in
            try Self.runs(session, condition: "TRUE", [], limit: limit, scoped: scoped)
        }
    }

    /// Ledger rows matching `condition`, newest first, with their rejects; for a `scoped` reader
    /// (SPEC section 23), the runs that touched its stores with their counts for those stores
    /// alone, and no rejects, errors or whole-file totals.
    static func runs(
        _ session: some SQLSession, condition: String, _ arguments: [SQLValue], limit: Int, scoped: Bool = false
    ) throws -> [IngestRun] {
        var runs: [IngestRun] = []
        let whole = """
            SELECT id, path, size, sha256, feed, started_at, finished_at, status, read_rows, inserted, updated, unchanged,
                skipped, rejected, error, sheet, history_pruned, undoes_run, deleted, actor, host
            FROM ingest_run WHERE \(condition) ORDER BY id DESC LIMIT ?
            """
        let perStore = """
            SELECT id, path, size, sha256, feed, started_at, finished_at, status, NULL,
                (SELECT sum(s.inserted) FROM ingest_run_store s WHERE s.run_id = id),
                (SELECT sum(s.updated) FROM ingest_run_store s WHERE s.run_id = id),
                (SELECT sum(s.unchanged) FROM ingest_run_store s WHERE s.run_id = id),
                NULL, NULL, NULL, sheet, history_pruned, undoes_run, 0, actor, host
            FROM ingest_run WHERE \(condition) ORDER BY id DESC LIMIT ?
            """
        try session.scan(scoped ? perStore : whole, arguments + [SQLValue(limit)]) { row in
            runs.append(
                IngestRun(
                    id: row.int64(0), path: row.optionalText(1), size: row.int64(2), sha256: row.text(3),
                    feed: row.optionalText(4),
                    startedAt: row.text(5), finishedAt: row.text(6), status: row.text(7),
                    read: row.optionalInt64(8).map(Int.init),
                    inserted: Int(row.int64(9)), updated: Int(row.int64(10)), unchanged: Int(row.int64(11)),
                    skipped: row.optionalInt64(12).map(Int.init), rejected: row.optionalInt64(13).map(Int.init),
                    error: row.optionalText(14), rejects: [],
                    sheet: row.optionalText(15), historyPruned: row.int64(16) != 0, undoesRun: row.optionalInt64(17),
                    deleted: Int(row.int64(18)), actor: row.optionalText(19), host: row.optionalText(20)))
        }
        for index in runs.indices where !scoped {
            guard let path = runs[index].path else { continue }
            let file = FeedFileReader.fileName(path)
            try session.scan(
                "SELECT sheet, row, column_name, header, value, reason FROM ingest_reject WHERE run_id = ? ORDER BY row",
                [.integer(runs[index].id)]
            ) { reject in
                runs[index].rejects.append(
                    Reject(
                        file: file, sheet: reject.text(0), row: Int(reject.int64(1)), column: reject.optionalText(2),
                        header: reject.optionalText(3), value: reject.text(4), reason: reject.text(5)))
            }
        }
        return runs
    }
}
