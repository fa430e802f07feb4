import Checks
import Feeds

/// Which of the ingest gate's alarms are the file's (SPEC section 18): those on its own feed, or
/// reconciling another feed with it, on store-days whose values it changed. Alarms on another
/// feed (one that stopped is `status`'s business) or on days the file re-sent unchanged were
/// there before it, and never hold it.
enum GateAlarmFilter {
    /// The alarms of `alarms` that are the file's: its feed's, on days run `run` changed (looked
    /// up in the history only for the stores where `split`, the run's split of the feed's table,
    /// has keys re-sent unchanged).
    static func fileAlarms(
        _ alarms: consuming [Alarm], feed: FeedID, run: Int64, split: RunHistorySplit, _ session: some SQLSession
    ) throws -> [Alarm] {
        // Filtered in place: a copy would hold the alarms twice at the ingest's end.
        alarms.removeAll { $0.feed != feed && $0.kind != .reconcile }
        let resentStores = Set(split.byStore.filter { $0.value.resent > 0 }.keys)
        guard alarms.contains(where: { resentStores.contains($0.store) }), let table = FeedTables.table(for: feed),
            let history = HistoryTable.named(table.name), let period = history.period,
            history.key == [period.dateColumn, "store_code"]
        else { return alarms }
        // Only the alarms' own keys are kept, so memory follows the alarms, not the file.
        let alarmed = Set(alarms.lazy.filter { resentStores.contains($0.store) }.map(StoreDayKey.init))
        var resent = Set<StoreDayKey>()
        try session.scan(
            """
            SELECT earlier.store_code, earlier.\(period.dateColumn)
            FROM \(history.history) AS earlier JOIN \(history.name) AS held ON \(history.keyMatch("held", "earlier"))
            WHERE earlier.\(HistoryTable.replacedByColumn) = ?
                AND \(RunHistorySplit.sameValues(history.dataColumns, "held", "earlier"))
            """, [.integer(run)]
        ) { row in
            guard let day = row.dayNumber(1) else { return }
            let key = StoreDayKey(store: row.text(0), day: day)
            if alarmed.contains(key) { resent.insert(key) }
        }
        if !resent.isEmpty { alarms.removeAll { resent.contains(StoreDayKey($0)) } }
        return alarms
    }

    /// A store and a day (since the epoch) of a row's key.
    private struct StoreDayKey: Hashable {
        let store: String
        let day: Int

        init(store: String, day: Int) {
            self.store = store
            self.day = day
        }

        /// The key of an alarm's (first) day.
        init(_ alarm: Alarm) { self.init(store: alarm.store, day: alarm.days.start.daysSinceEpoch) }
    }
}
