import Feeds
import Foundation
import GRDB

/// How one ingest behaves.
public struct IngestOptions: Sendable {
    /// Re-ingest a file whose SHA-256 already ingested `ok`.
    public var force = false
    /// Read and count everything, write nothing (not even the ledger).
    public var dryRun = false
    /// The largest share of rejected rows a file may have and still be written (default 5 %).
    public var rejectThreshold = 0.05

    public init(force: Bool = false, dryRun: Bool = false, rejectThreshold: Double = 0.05) {
        self.force = force
        self.dryRun = dryRun
        self.rejectThreshold = rejectThreshold
    }
}

/// A file ready to be read: its feed and the reading itself (records go to `emit`).
///
/// `read` runs on a background thread while the records are upserted on the database's.
public struct PreparedFeed {
    public var feed: FeedID
    public var read: (_ emit: (FeedRecord) throws -> Void) throws -> FeedReadResult

    public init(feed: FeedID, read: @escaping (_ emit: (FeedRecord) throws -> Void) throws -> FeedReadResult) {
        self.feed = feed
        self.read = read
    }
}

/// The ledger status of an ingest attempt.
public enum IngestStatus: String, Sendable, Codable {
    case ok, failed, duplicate
}

/// What happened to one file.
public struct IngestOutcome: Sendable {
    public var path: String
    public var status: IngestStatus
    public var feed: FeedID?
    /// The ledger row (`nil` for a dry run).
    public var runID: Int64?
    public var read = 0
    public var skipped = 0
    public var rejected = 0
    public var counts = UpsertCounts()
    public var rejects: [Reject] = []
    public var warnings: [String] = []
    public var error: String?
    public var dryRun = false
}

extension Warehouse {
    /// Ingests one file in one transaction (SPEC section 5): a file whose SHA-256 already
    /// ingested `ok` is a `duplicate` unless forced; otherwise every record is upserted, and the
    /// file either lands whole (`ok`) or not at all (`failed`: an error, or a reject rate over
    /// the threshold). Every attempt but a dry run is written to the ledger.
    public func ingest(path: String, options: IngestOptions, prepare: () throws -> PreparedFeed) -> IngestOutcome {
        var outcome = IngestOutcome(path: path, status: .failed, dryRun: options.dryRun)
        let started = Self.timestamp()
        let fingerprint: (digest: String, size: UInt64)
        do {
            fingerprint = try SHA256.ofFile(path)
        } catch {
            outcome.error = "\(error)"
            return outcome
        }
        do {
            if !options.force, let previous = try previousOK(sha256: fingerprint.digest) {
                outcome.status = .duplicate
                outcome.feed = previous
                outcome.error = "already ingested ok with the same SHA-256; use --force to ingest again"
                if !options.dryRun { outcome.runID = try recordAttempt(outcome, path: path, fingerprint: fingerprint, started: started) }
                return outcome
            }
            let prepared = try prepare()
            outcome.feed = prepared.feed
            try pool.writeWithoutTransaction { db in
                try db.inTransaction {
                    let runID = try insertRun(db, path: path, fingerprint: fingerprint, feed: prepared.feed, started: started)
                    var writer = try RecordWriter(db, table: FeedCatalog.definition(prepared.feed).table, runID: runID)
                    let result = try RecordPipeline.run(produce: prepared.read) { record in try writer.write(record, db) }
                    outcome.read = result.read
                    outcome.skipped = result.skipped
                    outcome.rejected = result.rejected
                    outcome.rejects = result.rejects
                    outcome.warnings = result.warnings
                    outcome.counts = try writer.finish(db)
                    if result.rejectRate > options.rejectThreshold {
                        throw IngestFailure(
                            message: "\(result.rejected) of \(result.read - result.skipped) rows rejected (\(Self.percent(result.rejectRate))), over the \(Self.percent(options.rejectThreshold)) threshold; nothing was written")
                    }
                    if options.dryRun { return .rollback }
                    outcome.status = .ok
                    outcome.runID = runID
                    try finishRun(db, runID: runID, outcome: outcome)
                    return .commit
                }
            }
        } catch {
            outcome.status = .failed
            outcome.counts = UpsertCounts()
            outcome.error = (error as? IngestFailure)?.message ?? "\(error)"
            if !options.dryRun {
                outcome.runID = try? recordAttempt(outcome, path: path, fingerprint: fingerprint, started: started)
            }
        }
        return outcome
    }

    private func previousOK(sha256: String) throws -> FeedID? {
        try pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT feed FROM ingest_run WHERE sha256 = ? AND status = 'ok' ORDER BY id DESC LIMIT 1",
                arguments: [sha256]
            ).flatMap(FeedID.init(rawValue:))
        }
    }

    private func insertRun(
        _ db: Database, path: String, fingerprint: (digest: String, size: UInt64), feed: FeedID?, started: String
    ) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO ingest_run (path, size, sha256, feed, started_at, finished_at, status)
                VALUES (?, ?, ?, ?, ?, ?, 'failed')
                """,
            arguments: [path, Int64(fingerprint.size), fingerprint.digest, feed?.rawValue, started, started])
        return db.lastInsertedRowID
    }

    private func finishRun(_ db: Database, runID: Int64, outcome: IngestOutcome) throws {
        try db.execute(
            sql: """
                UPDATE ingest_run SET finished_at = ?, status = ?, read_rows = ?, inserted = ?, updated = ?,
                    unchanged = ?, skipped = ?, rejected = ?, error = ?
                WHERE id = ?
                """,
            arguments: [
                Self.timestamp(), outcome.status.rawValue, outcome.read, outcome.counts.inserted, outcome.counts.updated,
                outcome.counts.unchanged, outcome.skipped, outcome.rejected, outcome.error, runID,
            ])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO ingest_reject (run_id, sheet, row, column_name, header, value, reason) VALUES (?, ?, ?, ?, ?, ?, ?)")
        for reject in outcome.rejects {
            try insert.execute(arguments: [runID, reject.sheet, reject.row, reject.column, reject.header, reject.value, reject.reason])
        }
    }

    /// Writes a ledger row for an attempt that wrote no data (failed or duplicate).
    private func recordAttempt(
        _ outcome: IngestOutcome, path: String, fingerprint: (digest: String, size: UInt64), started: String
    ) throws -> Int64 {
        try pool.write { db in
            let runID = try insertRun(db, path: path, fingerprint: fingerprint, feed: outcome.feed, started: started)
            try finishRun(db, runID: runID, outcome: outcome)
            return runID
        }
    }

    static func timestamp() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date())
    }

    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }
}

/// A file-level failure detected while ingesting (reject threshold), with the message for the ledger.
struct IngestFailure: Error {
    let message: String
}
