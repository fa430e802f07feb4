import CivilCalendar

/// Counts per store and day, for feeds with one row per event (credit applications, intakes).
struct DailyCounter {
    private struct Key: Hashable {
        let store: String
        let day: Int
    }
    private var counts: [Key: (count: Int, firstRow: Int)] = [:]

    /// Adds `count` events of a store-day read at source row `row`.
    mutating func add(store: String, date: CivilDate, count: Int = 1, row: Int) {
        counts[Key(store: store, day: date.daysSinceEpoch), default: (0, row)].count += count
    }

    /// The totals in key order (store, then date), so output is deterministic, each with the
    /// first source row that counted in it.
    var records: [(record: DailyCountRecord, row: Int)] {
        counts.sorted { ($0.key.store, $0.key.day) < ($1.key.store, $1.key.day) }.map {
            (
                DailyCountRecord(
                    store: $0.key.store, date: CivilDate(daysSinceEpoch: $0.key.day), count: $0.value.count),
                $0.value.firstRow
            )
        }
    }
}

/// Counts per store and week (weeks start on the configured weekday), with per-day counts
/// when the source gives dates, or only totals when it gives weekly summaries.
struct WeeklyCounter {
    private struct Key: Hashable {
        let store: String
        let weekStart: Int
    }
    private struct Counts {
        var total = 0
        var days: [Int]?
        /// The first source row that counted in the week.
        var firstRow: Int
    }
    private var counts: [Key: Counts] = [:]
    let weekStart: Int

    init(weekStart: Int) { self.weekStart = weekStart }

    /// Adds `count` on a known day, read at source row `row`.
    mutating func add(store: String, date: CivilDate, count: Int = 1, row: Int) {
        let first = date.weekStart(on: weekStart)
        let key = Key(store: store, weekStart: first.daysSinceEpoch)
        var entry = counts[key] ?? Counts(total: 0, days: Array(repeating: 0, count: 7), firstRow: row)
        entry.total += count
        if entry.days != nil { entry.days?[date.daysSinceEpoch - first.daysSinceEpoch] += count }
        counts[key] = entry
    }

    /// Adds a weekly total whose days are unknown (the week's per-day counts become unknown
    /// too), read at source row `row`.
    mutating func add(store: String, weekOf date: CivilDate, total: Int, row: Int) {
        let key = Key(store: store, weekStart: date.weekStart(on: weekStart).daysSinceEpoch)
        var entry = counts[key] ?? Counts(firstRow: row)
        entry.total += total
        entry.days = nil
        counts[key] = entry
    }

    /// The totals in key order (store, then week), each with the first source row that counted in it.
    var records: [(record: WeeklyCountRecord, row: Int)] {
        counts.sorted { ($0.key.store, $0.key.weekStart) < ($1.key.store, $1.key.weekStart) }.map {
            let record = WeeklyCountRecord(
                store: $0.key.store, weekStart: CivilDate(daysSinceEpoch: $0.key.weekStart), total: $0.value.total,
                dailyCounts: $0.value.days)
            return (record, $0.value.firstRow)
        }
    }
}
