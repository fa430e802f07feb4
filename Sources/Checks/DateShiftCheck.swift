import CivilCalendar
import Feeds

/// `date-shift` (SPEC section 18): a run whose sales-audit rows equal the same store's rows 7,
/// 364 or 365 days earlier for at least 90 % of its keys — last year's (or last week's) file
/// sent as this one. One alarm per store of the run, over that store's days in the run.
///
/// A tally that adds up across the chunks of days a long check is split into: per run, its
/// keys, how many equal the row each distance earlier, and per store the span and the sums an
/// alarm reports.
public struct DateShiftTally: Sendable {
    static let lags = [7, 364, 365]
    static let minimumShare = 0.9

    /// One store's keys of a run.
    private struct StoreKeys: Sendable {
        var first = Int.max
        var last = Int.min
        var cents: Int64 = 0
        /// Per lag, the cents of the rows that distance earlier.
        var earlierCents = [Int64](repeating: 0, count: DateShiftTally.lags.count)
    }

    /// One run's keys.
    private struct RunKeys: Sendable {
        var keys = 0
        var matches = [Int](repeating: 0, count: DateShiftTally.lags.count)
        var judged = false
        var stores: [String: StoreKeys] = [:]
    }

    private var runs: [Int64: RunKeys] = [:]

    public init() {}

    /// One store's consecutive keys of one run, gathered before they are added to the run.
    private struct Stretch {
        let run: Int64
        var keys = 0
        var matches = [Int](repeating: 0, count: DateShiftTally.lags.count)
        var judged = false
        var store = StoreKeys()
    }

    /// Counts the sales-audit rows of `series` at `positions`: a store's keys of one run are
    /// gathered locally and added to the run once (keys come run by run).
    mutating func add(_ series: StoreSeries, positions: Range<Int>) {
        var stretch = Stretch(run: 0)
        for index in positions {
            guard let day = series.sales[index], day.run != 0 else { continue }
            if stretch.run != day.run {
                record(stretch, code: series.store)
                stretch = Stretch(run: day.run)
            }
            stretch.keys += 1
            stretch.judged = stretch.judged || series.isJudged(index)
            stretch.store.first = min(stretch.store.first, series.first + index)
            stretch.store.last = max(stretch.store.last, series.first + index)
            stretch.store.cents += day.cents
            for (slot, lag) in Self.lags.enumerated() where index >= lag {
                guard let earlier = series.sales[index - lag] else { continue }
                stretch.store.earlierCents[slot] += earlier.cents
                if day.hasSameFigures(as: earlier) { stretch.matches[slot] += 1 }
            }
        }
        record(stretch, code: series.store)
    }

    /// Adds a stretch of keys to its run, in place (a stretch of run 0 holds nothing).
    private mutating func record(_ stretch: Stretch, code: String) {
        guard stretch.run != 0 else { return }
        Self.add(
            stretch.store, keys: stretch.keys, matches: stretch.matches, judged: stretch.judged, code: code,
            to: &runs[stretch.run, default: RunKeys()])
    }

    /// Adds one store's keys of a run to the run, in place.
    private static func add(
        _ store: StoreKeys, keys: Int, matches: [Int], judged: Bool, code: String, to run: inout RunKeys
    ) {
        run.keys += keys
        run.judged = run.judged || judged
        for slot in run.matches.indices { run.matches[slot] += matches[slot] }
        merge(store, into: &run.stores[code, default: StoreKeys()])
    }

    /// Adds one store's keys to the same store's, in place.
    private static func merge(_ store: StoreKeys, into total: inout StoreKeys) {
        total.first = min(total.first, store.first)
        total.last = max(total.last, store.last)
        total.cents += store.cents
        for slot in total.earlierCents.indices { total.earlierCents[slot] += store.earlierCents[slot] }
    }

    /// Adds another chunk's tally.
    public mutating func merge(_ other: DateShiftTally) {
        for (id, theirs) in other.runs {
            for (code, store) in theirs.stores {
                Self.merge(store, into: &runs[id, default: RunKeys()].stores[code, default: StoreKeys()])
            }
            runs[id, default: RunKeys()].keys += theirs.keys
            runs[id, default: RunKeys()].judged = runs[id, default: RunKeys()].judged || theirs.judged
            for slot in theirs.matches.indices { runs[id, default: RunKeys()].matches[slot] += theirs.matches[slot] }
        }
    }

    /// The alarms of the runs with a judged key whose keys equal the rows one distance earlier
    /// for at least 90 % of them.
    public func alarms() -> [Alarm] {
        var alarms: [Alarm] = []
        for (id, run) in runs.sorted(by: { $0.key < $1.key }) where run.judged && run.keys > 0 {
            guard let best = run.matches.indices.max(by: { run.matches[$0] < run.matches[$1] }) else { continue }
            let share = Double(run.matches[best]) / Double(run.keys)
            guard share >= Self.minimumShare else { continue }
            for (code, store) in run.stores.sorted(by: { $0.key < $1.key }) {
                alarms.append(
                    Alarm(
                        kind: .dateShift, feed: .salesAudit, store: code,
                        days: DateRange(
                            start: CivilDate(daysSinceEpoch: store.first), end: CivilDate(daysSinceEpoch: store.last)),
                        metric: "totalSales", value: Double(store.cents) / 100,
                        expected: Double(store.earlierCents[best]) / 100, score: share, run: id,
                        note:
                            "\(Int((share * 100).rounded(.down)))% of the run's rows equal the store's rows \(Self.lags[best]) days earlier"
                    ))
            }
        }
        return alarms
    }
}
