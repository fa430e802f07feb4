import Checks
import CivilCalendar
import Feeds
import Foundation
import Threads

extension Warehouse {
    /// Ingests one file in one transaction (SPEC section 5): a file whose SHA-256 already
    /// ingested `ok` is a `duplicate` unless forced; otherwise every record is upserted, and the
    /// file either lands whole (`ok`) or not at all (`failed`: an error, or a reject rate over
    /// the threshold). Every attempt but a dry run is written to the ledger.
    ///
    /// The file is hashed on a background thread while it is read, rather than in a pass
    /// before: the duplicate check runs as soon as the digest is ready (always before the
    /// commit) and stops the read of a duplicate there.
    public func ingest(path: String, options: IngestOptions, prepare: () throws -> PreparedFeed) -> IngestOutcome {
        var outcome = IngestOutcome(path: path, status: .failed, dryRun: options.dryRun)
        let started = UTCTimestamp.now()
        let check: DuplicateCheck
        do {
            check = DuplicateCheck(hashing: try BackgroundTask { try SHA256.ofFile(path) }, force: options.force)
        } catch {
            outcome.error = "\(error)"
            return outcome
        }
        // Whether a row of the file has been read: a database error before it is not the file's.
        var rowRead = false
        let ending: FileEnding
        do {
            let prepared = try prepare()
            outcome.feed = prepared.feed
            var written = FileEnding.committed
            try backend.ingestTransaction { session in
                func write(_ session: some SQLSession) throws -> FileEnding {
                    try writeFile(
                        session, path: path, prepared: prepared, options: options, check: check, started: started,
                        outcome: &outcome, rowRead: &rowRead)
                }
                // Called with the concrete session, the per-row work (the writer, the gate) is
                // specialised for it; through `any SQLSession` every row would look up type
                // metadata and call through witness tables.
                switch session {
                case let sqlite as SQLiteSession: written = try write(sqlite)
                case let postgres as PostgresSession: written = try write(postgres)
                default: written = try write(session)
                }
                if case .committed = written { return true }
                return false
            }
            ending = written
        } catch {
            ending = .failed(error)
        }
        switch ending {
        case .committed, .dryRun:
            return outcome
        case .overRejectThreshold(let message):
            outcome.status = .failed
            outcome.counts = UpsertCounts()
            outcome.error = message
        case .heldForAlarms:
            outcome.status = .held
            outcome.counts = UpsertCounts()
            outcome.error =
                "held: \(outcome.alarms.count) alarm\(outcome.alarms.count == 1 ? "" : "s") on the store-days the file touched; nothing was written (see `ddkpi check`; ingest again with --accept-alarms to load it)"
        case .failed(let error):
            var failure = error
            if check.fingerprint == nil {
                // The duplicate verdict wins over a read error, as when the check ran first.
                do { try backend.read { try check.run($0) } } catch { if error is DuplicateFile { failure = error } }
            }
            if let duplicate = failure as? DuplicateFile {
                outcome = IngestOutcome(path: path, status: .duplicate, feed: duplicate.feed, dryRun: options.dryRun)
                outcome.error = "already ingested ok with the same SHA-256; use --force to ingest again"
            } else {
                outcome.status = .failed
                outcome.counts = UpsertCounts()
                outcome.error = "\(failure)"
                outcome.outsideFailure = OutsideFailure(classifying: failure, beforeTheFirstRowOf: rowRead ? nil : path)
            }
        }
        if !options.dryRun, let fingerprint = check.fingerprint {
            outcome.runID = try? recordAttempt(outcome, path: path, fingerprint: fingerprint, started: started)
        }
        if case .heldForAlarms(let heldRun) = ending {
            // The alarms named the rolled-back run: they name the ledger's held run instead.
            for index in outcome.alarms.indices where outcome.alarms[index].run == heldRun {
                outcome.alarms[index].run = outcome.runID
            }
        }
        return outcome
    }

    /// Reads the file and writes its records and ledger row in the caller's transaction, setting
    /// `rowRead` once the first record has been read; returns how the transaction ends (committed
    /// only when the file lands). Throws, rolling everything back, on an error or a duplicate.
    private func writeFile(
        _ session: some SQLSession, path: String, prepared: PreparedFeed, options: IngestOptions, check: DuplicateCheck,
        started: String, outcome: inout IngestOutcome, rowRead: inout Bool
    ) throws -> FileEnding {
        let runID = try insertRun(session, path: path, feed: prepared.feed, started: started)
        var writer = try RecordWriter(session, table: prepared.feed.table, runID: runID)
        var records = 0
        var gate = options.checks.map { FileGate(feed: prepared.feed, settings: $0) }
        let result = try prepared.read { record, row in
            rowRead = true
            records += 1
            if records % 1024 == 0, check.isReady { try check.run(session) }
            try gate?.add(record, run: runID, session)
            try writer.write(record, row: row)
        }
        try gate?.endOfFile(session)
        try check.run(session)
        outcome.read = result.read
        outcome.skipped = result.skipped
        outcome.rejected = result.rejected
        outcome.rejects = result.rejects
        outcome.warnings = result.warnings
        let written = try writer.finish()
        outcome.counts = written.counts
        outcome.sheet = result.sheet
        if result.rejectRate > options.rejectThreshold {
            return .overRejectThreshold(
                message:
                    "\(result.rejected) of \(result.read - result.skipped) rows rejected (\(Self.percent(result.rejectRate))), over the \(Self.percent(options.rejectThreshold)) threshold; nothing was written"
            )
        }
        if let settings = options.checks, var gate {
            outcome.alarms = try GateAlarmFilter.fileAlarms(
                try gate.alarms(session, in: self), feed: prepared.feed, run: runID, split: written.split, session)
            if !outcome.alarms.isEmpty {
                if options.acceptAlarms {
                    outcome.alarmsAccepted = true
                } else if settings.onIngest == .hold, !options.dryRun {
                    return .heldForAlarms(runID: runID)
                }
            }
        }
        outcome.status = .ok
        // A dry run reports what the real run would, and its transaction rolls back.
        if options.dryRun { return .dryRun }
        outcome.runID = runID
        try finishRun(session, runID: runID, outcome: outcome, fingerprint: check.fingerprint)
        return .committed
    }

    /// Starts the file's ledger row; `finishRun` completes it.
    private func insertRun(_ session: some SQLSession, path: String, feed: FeedID?, started: String) throws -> Int64 {
        try session.insertReturningID(
            """
            INSERT INTO ingest_run (path, size, sha256, feed, started_at, finished_at, status, actor, host)
            VALUES (?, 0, '', ?, ?, ?, 'failed', ?, ?)
            """,
            [
                .text(path), SQLValue(feed?.rawValue), .text(started), .text(started), .text(try session.actor()),
                .text(RunActor.host),
            ])
    }

    private func finishRun(_ session: some SQLSession, runID: Int64, outcome: IngestOutcome, fingerprint: Fingerprint?)
        throws
    {
        try session.execute(
            """
            UPDATE ingest_run SET size = ?, sha256 = ?, finished_at = ?, status = ?, read_rows = ?, inserted = ?,
                updated = ?, unchanged = ?, skipped = ?, rejected = ?, error = ?, sheet = ?, alarms = ?,
                alarms_accepted = ?
            WHERE id = ?
            """,
            [
                .integer(Int64(fingerprint?.size ?? 0)), .text(fingerprint?.digest ?? ""), .text(UTCTimestamp.now()),
                .text(outcome.status.rawValue), SQLValue(outcome.read), SQLValue(outcome.counts.inserted),
                SQLValue(outcome.counts.updated), SQLValue(outcome.counts.unchanged), SQLValue(outcome.skipped),
                SQLValue(outcome.rejected), SQLValue(outcome.error), SQLValue(outcome.sheet),
                SQLValue(outcome.alarms.count), .integer(outcome.alarmsAccepted ? 1 : 0), .integer(runID),
            ])
        for reject in outcome.rejects {
            try session.execute(
                "INSERT INTO ingest_reject (run_id, sheet, row, column_name, header, value, reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    .integer(runID), .text(reject.sheet), SQLValue(reject.row), SQLValue(reject.column),
                    SQLValue(reject.header),
                    .text(reject.value), .text(reject.reason),
                ])
        }
    }

    /// Writes a ledger row for an attempt that wrote no data (failed or duplicate).
    private func recordAttempt(_ outcome: IngestOutcome, path: String, fingerprint: Fingerprint, started: String) throws
        -> Int64
    {
        try backend.write { session in
            let runID = try insertRun(session, path: path, feed: outcome.feed, started: started)
            try finishRun(session, runID: runID, outcome: outcome, fingerprint: fingerprint)
            return runID
        }
    }

    /// One ingest's duplicate check: once the file's digest is ready, looks for an `ok` run of
    /// the same bytes and throws `DuplicateFile` if there is one (unless forced).
    private final class DuplicateCheck {
        private let hashing: BackgroundTask<Fingerprint>
        private let force: Bool
        /// The file's digest and size, once the check has run.
        private(set) var fingerprint: Fingerprint?

        init(hashing: BackgroundTask<Fingerprint>, force: Bool) {
            self.hashing = hashing
            self.force = force
        }

        /// Whether the digest is ready and not yet checked.
        var isReady: Bool { fingerprint == nil && hashing.isFinished }

        /// Waits for the digest and checks it (once; later calls return at once).
        func run(_ session: some SQLSession) throws {
            guard fingerprint == nil else { return }
            let digest = try hashing.value()
            fingerprint = digest
            if !force, let previous = try Self.previousOK(session, sha256: digest.digest) {
                throw DuplicateFile(feed: previous)
            }
        }

        private static func previousOK(_ session: some SQLSession, sha256: String) throws -> FeedID? {
            var feed: FeedID?
            try session.scan(
                "SELECT feed FROM ingest_run WHERE sha256 = ? AND status = 'ok' ORDER BY id DESC LIMIT 1",
                [.text(sha256)]
            ) { row in feed = FeedID(rawValue: row.text(0)) }
            return feed
        }
    }

    static func percent(_ fraction: Double) -> String {
        String(format: "%.1f%%", fraction * 100)
    }
}

/// How one file's ingest ended: only `committed` keeps what its transaction wrote.
private enum FileEnding {
    case committed
    /// Rolled back, having counted what the real run would write.
    case dryRun
    /// Rolled back: more of its rows were rejected than the threshold allows (`message` says so).
    case overRejectThreshold(message: String)
    /// Rolled back: the checks found alarms under `[check] on_ingest = "hold"`; `runID` is the
    /// run the rolled-back transaction had started, which the alarms name.
    case heldForAlarms(runID: Int64)
    /// Failed before or during its transaction, which rolled back: an error, or a duplicate.
    case failed(Error)
}

/// A file's SHA-256 (hex) and size.
typealias Fingerprint = (digest: String, size: UInt64)
