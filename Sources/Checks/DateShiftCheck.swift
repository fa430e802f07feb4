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
    /// The distances in days a run's keys are compared at: a week, 52 weeks and a year.
    /// Computed where it is used (a stored `static let` of a SIMD value is initialised lazily,
    /// a `swift_once` check per row scanned).
    static var lags: PerLag<Int> { PerLag(7, 364, 365) }
    static let minimumShare = 0.9

    /// One count per lag, in a value of fixed size (a row's key is counted millions of times).
    typealias PerLag<Count: SIMDScalar> = SIMD3<Count>

    /// One store's keys of a run.
    private struct StoreKeys: Sendable {
        var first = Int.max
        var last = Int.min
        var cents: Int64 = 0
        /// Per lag, the cents of the rows that distance earlier.
        var earlierCents = PerLag<Int64>()
    }

    /// One run's keys.
    private struct RunKeys: Sendable {
        var keys = 0
        var matches = PerLag<Int>()
        var judged = false
        var stores: [String: StoreKeys] = [:]
    }

    private var runs: [Int64: RunKeys] = [:]

    public init() {}

    /// One store's consecutive keys of one run, gathered before they are added to the run.
    struct Stretch {
        let run: Int64
        private(set) var keys = 0
        private var matches = PerLag<Int>()
        private var judged = false
        private var store = StoreKeys()

        init(run: Int64) { self.run = run }

        /// Counts the key of day `day` (days since the epoch), whose row is `row`, against the
        /// rows each distance before it: `earlier(lag)` gives that row's cents and whether every
        /// figure equals `row`'s (`nil` without a row).
        mutating func add(
            day: Int, row: SalesDay, judged isJudged: Bool, earlier: (Int) -> (cents: Int64, same: Bool)?
        ) {
            keys += 1
            judged = judged || isJudged
            store.first = min(store.first, day)
            store.last = max(store.last, day)
            store.cents += row.cents
            // The three distances written out, added as vectors: this runs for every row, and a
            // loop over them indexed its vectors one lane at a time.
            let lags = DateShiftTally.lags
            let (week, year, yearAndDay) = (earlier(lags.x), earlier(lags.y), earlier(lags.z))
            store.earlierCents &+= PerLag(week?.cents ?? 0, year?.cents ?? 0, yearAndDay?.cents ?? 0)
            matches &+= PerLag(week?.same == true ? 1 : 0, year?.same == true ? 1 : 0, yearAndDay?.same == true ? 1 : 0)
        }

        /// Adds the stretch to its run in `tally`, in place (a stretch of run 0 holds nothing).
        func record(code: String, in tally: inout DateShiftTally) {
            guard run != 0 else { return }
            DateShiftTally.add(
                store, keys: keys, matches: matches, judged: judged, code: code,
                to: &tally.runs[run, default: RunKeys()])
        }
    }

    /// Counts the sales-audit rows of `series` at `positions`: a store's keys of one run are
    /// gathered locally and added to the run once (keys come run by run).
    mutating func add(_ series: StoreSeries, positions: Range<Int>) {
        var stretch = Stretch(run: 0)
        for index in positions {
            guard let day = series.sales[index], day.run != 0 else { continue }
            if stretch.run != day.run {
                stretch.record(code: series.store, in: &self)
                stretch = Stretch(run: day.run)
            }
            stretch.add(day: series.first + index, row: day, judged: series.isJudged(index)) { lag in
                guard index >= lag, let earlier = series.sales[index - lag] else { return nil }
                return (earlier.cents, day.hasSameFigures(as: earlier))
            }
        }
        stretch.record(code: series.store, in: &self)
    }

    /// Adds one store's keys of a run to the run, in place.
    private static func add(
        _ store: StoreKeys, keys: Int, matches: PerLag<Int>, judged: Bool, code: String, to run: inout RunKeys
    ) {
        run.keys += keys
        run.judged = run.judged || judged
        run.matches &+= matches
        merge(store, into: &run.stores[code, default: StoreKeys()])
    }

    /// Adds one store's keys to the same store's, in place.
    private static func merge(_ store: StoreKeys, into total: inout StoreKeys) {
        total.first = min(total.first, store.first)
        total.last = max(total.last, store.last)
        total.cents += store.cents
        total.earlierCents &+= store.earlierCents
    }

    /// Adds another chunk's tally.
    public mutating func merge(_ other: DateShiftTally) {
        for (id, theirs) in other.runs {
            for (code, store) in theirs.stores {
                Self.merge(store, into: &runs[id, default: RunKeys()].stores[code, default: StoreKeys()])
            }
            runs[id, default: RunKeys()].keys += theirs.keys
            runs[id, default: RunKeys()].judged = runs[id, default: RunKeys()].judged || theirs.judged
            runs[id, default: RunKeys()].matches &+= theirs.matches
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
