import CivilCalendar

/// The ledger row of an undo (SPEC section 16): feed `undo`, no path, the run it undid, and the
/// keys it restored (`updated`) and deleted (`deleted`).
enum UndoRunLedger {
    /// The ledger's feed of an undo run.
    static let feed = "undo"

    /// Starts the undo run of `run`; `finish` completes it in the same transaction.
    static func start(_ session: some SQLSession, undoing run: Int64) throws -> Int64 {
        let now = UTCTimestamp.now()
        return try session.insertReturningID(
            """
            INSERT INTO ingest_run (path, size, sha256, feed, started_at, finished_at, status, undoes_run, actor, host)
            VALUES (NULL, 0, '', ?, ?, ?, 'ok', ?, ?, ?)
            """,
            [.text(feed), .text(now), .text(now), .integer(run), .text(try session.actor()), .text(RunActor.host)])
    }

    /// Records what the undo run did.
    static func finish(_ session: some SQLSession, undoRun: Int64, restored: Int, deleted: Int) throws {
        try session.execute(
            "UPDATE ingest_run SET finished_at = ?, updated = ?, deleted = ? WHERE id = ?",
            [.text(UTCTimestamp.now()), SQLValue(restored), SQLValue(deleted), .integer(undoRun)])
    }
}
