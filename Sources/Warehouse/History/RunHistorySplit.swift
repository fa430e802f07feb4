/// The history entries one run wrote into a table, per store: keys whose values it changed, and
/// keys an earlier run wrote that it re-sent unchanged and so now holds (SPEC section 16).
struct RunHistorySplit {
    /// One store's keys (all of a table without stores, under `""`).
    struct Keys: Equatable {
        var changed = 0
        var resent = 0
        var total: Int { changed + resent }
    }

    private(set) var byStore: [String: Keys] = [:]

    /// The keys of every store.
    var all: Keys {
        byStore.values.reduce(into: Keys()) {
            $0.changed += $1.changed
            $0.resent += $1.resent
        }
    }

    /// Compares each key's entry with the row the run left: equal `tracked` values mean the run
    /// re-sent the key unchanged. Reads only the run's own entries (`replaced_by_run` is indexed).
    static func load(_ session: some SQLSession, table: HistoryTable, tracked: [String], run: Int64) throws
        -> RunHistorySplit
    {
        let store = table.period == nil ? "''" : "earlier.store_code"
        let same = sameValues(tracked, "held", "earlier")
        var split = RunHistorySplit()
        try session.scan(
            """
            SELECT \(store), count(*), sum(CASE WHEN \(same) THEN 1 ELSE 0 END)
            FROM \(table.history) AS earlier JOIN \(table.name) AS held ON \(table.keyMatch("held", "earlier"))
            WHERE earlier.\(HistoryTable.replacedByColumn) = ? GROUP BY 1
            """, [.integer(run)]
        ) { row in
            let resent = Int(row.int64(2))
            split.byStore[row.text(0)] = Keys(changed: Int(row.int64(1)) - resent, resent: resent)
        }
        return split
    }

    /// SQL that is true when `a` and `b` hold the same value in every one of `columns` (NULL
    /// equal to NULL), in both backends' dialects.
    static func sameValues(_ columns: [String], _ a: String, _ b: String) -> String {
        columns.map { "(\(a).\($0) = \(b).\($0) OR (\(a).\($0) IS NULL AND \(b).\($0) IS NULL))" }
            .joined(separator: " AND ")
    }
}
