import Feeds
import GRDB

/// One row of the `ingest_run` ledger, with its stored rejects.
public struct IngestRun: Sendable, Codable, Equatable {
    public var id: Int64
    public var path: String
    public var size: Int64
    public var sha256: String
    public var feed: String?
    public var startedAt: String
    public var finishedAt: String
    public var status: String
    public var read: Int
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    public var skipped: Int
    public var rejected: Int
    public var error: String?
    public var rejects: [Reject]
}

extension Warehouse {
    /// The most recent ledger rows, newest first.
    public func runs(limit: Int) throws -> [IngestRun] {
        try pool.read { db in
            let rows = try GRDB.Row.fetchAll(
                db, sql: "SELECT * FROM ingest_run ORDER BY id DESC LIMIT ?", arguments: [limit])
            return try rows.map { row in
                let id: Int64 = row["id"]
                let path: String = row["path"]
                let rejects = try GRDB.Row.fetchAll(
                    db, sql: "SELECT * FROM ingest_reject WHERE run_id = ? ORDER BY row", arguments: [id]
                ).map { reject in
                    Reject(
                        file: FeedFileReader.fileName(path), sheet: reject["sheet"], row: reject["row"],
                        column: reject["column_name"], header: reject["header"], value: reject["value"],
                        reason: reject["reason"])
                }
                return IngestRun(
                    id: id, path: path, size: row["size"], sha256: row["sha256"], feed: row["feed"],
                    startedAt: row["started_at"], finishedAt: row["finished_at"], status: row["status"],
                    read: row["read_rows"], inserted: row["inserted"], updated: row["updated"],
                    unchanged: row["unchanged"], skipped: row["skipped"], rejected: row["rejected"], error: row["error"],
                    rejects: rejects)
            }
        }
    }
}
