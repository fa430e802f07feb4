import Checks
import Feeds

/// Which of the ingest gate's alarms are the file's (SPEC section 18): those on its own feed, or
/// reconciling another feed with it, on store-days whose values it changed. Alarms on another
/// feed (one that stopped is `status`'s business) or on days the file re-sent unchanged were
/// there before it, and never hold it.
enum GateAlarmFilter {
    /// The alarms of `alarms` that are the file's: its feed's, on days run `run` changed.
    static func fileAlarms(_ alarms: [Alarm], feed: FeedID, run: Int64, _ session: some SQLSession) throws -> [Alarm] {
        let own = alarms.filter { $0.feed == feed || $0.kind == .reconcile }
        guard !own.isEmpty, let table = FeedTables.table(for: feed), let history = HistoryTable.named(table.name),
            let period = history.period, history.key == [period.dateColumn, "store_code"]
        else { return own }
        // Only the alarms' own keys are kept, so memory follows the alarms, not the file.
        let alarmed = Set(own.map { StoreDateKey(store: $0.store, date: $0.days.start.iso8601) })
        var resent = Set<StoreDateKey>()
        try session.scan(
            """
            SELECT earlier.store_code, earlier.\(period.dateColumn)
            FROM \(history.history) AS earlier JOIN \(history.name) AS held ON \(history.keyMatch("held", "earlier"))
            WHERE earlier.\(HistoryTable.replacedByColumn) = ?
                AND \(RunHistorySplit.sameValues(history.dataColumns, "held", "earlier"))
            """, [.integer(run)]
        ) { row in
            let key = StoreDateKey(store: row.text(0), date: row.text(1))
            if alarmed.contains(key) { resent.insert(key) }
        }
        guard !resent.isEmpty else { return own }
        return own.filter { !resent.contains(StoreDateKey(store: $0.store, date: $0.days.start.iso8601)) }
    }

    /// A store and the date text of a row's key.
    private struct StoreDateKey: Hashable {
        let store: String
        let date: String
    }
}
