import CivilCalendar

/// Counts per store and day, for feeds with one row per event (credit applications, intakes).
struct DailyCounter {
    private struct Key: Hashable { let store: String; let day: Int }
    private var counts: [Key: Int] = [:]

    mutating func add(store: String, date: CivilDate, count: Int = 1) {
        counts[Key(store: store, day: date.daysSinceEpoch), default: 0] += count
    }

    /// The totals in key order (store, then date), so output is deterministic.
    var records: [DailyCountRecord] {
        counts.sorted { ($0.key.store, $0.key.day) < ($1.key.store, $1.key.day) }.map {
            DailyCountRecord(store: $0.key.store, date: CivilDate(daysSinceEpoch: $0.key.day), count: $0.value)
        }
    }
}

/// Counts per store and week (weeks start on the configured weekday), with per-day counts
/// when the source gives dates, or only totals when it gives weekly summaries.
struct WeeklyCounter {
    private struct Key: Hashable { let store: String; let weekStart: Int }
    private struct Counts { var total = 0; var days: [Int]? }
    private var counts: [Key: Counts] = [:]
    let weekStart: Int

    init(weekStart: Int) { self.weekStart = weekStart }

    /// Adds `count` on a known day.
    mutating func add(store: String, date: CivilDate, count: Int = 1) {
        let first = date.weekStart(on: weekStart)
        let key = Key(store: store, weekStart: first.daysSinceEpoch)
        var entry = counts[key] ?? Counts(total: 0, days: Array(repeating: 0, count: 7))
        entry.total += count
        if entry.days != nil { entry.days?[date.daysSinceEpoch - first.daysSinceEpoch] += count }
        counts[key] = entry
    }

    /// Adds a weekly total whose days are unknown (the week's per-day counts become unknown too).
    mutating func add(store: String, weekOf date: CivilDate, total: Int) {
        let key = Key(store: store, weekStart: date.weekStart(on: weekStart).daysSinceEpoch)
        var entry = counts[key] ?? Counts()
        entry.total += total
        entry.days = nil
        counts[key] = entry
    }

    var records: [WeeklyCountRecord] {
        counts.sorted { ($0.key.store, $0.key.weekStart) < ($1.key.store, $1.key.weekStart) }.map {
            WeeklyCountRecord(
                store: $0.key.store, weekStart: CivilDate(daysSinceEpoch: $0.key.weekStart), total: $0.value.total,
                dailyCounts: $0.value.days)
        }
    }
}
