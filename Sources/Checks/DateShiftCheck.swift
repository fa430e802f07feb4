import CivilCalendar
import Feeds

/// `date-shift` (SPEC section 18): a run whose sales-audit rows equal the same store's rows 7,
/// 364 or 365 days earlier for at least 90 % of its keys — last year's (or last week's) file
/// sent as this one. One alarm per store of the run, over that store's days in the run.
enum DateShiftCheck {
    static let lags = [7, 364, 365]
    static let minimumShare = 0.9

    /// A run's store-days: per store series, the positions the run wrote.
    private struct RunKeys {
        var positions: [(series: Int, index: Int)] = []
    }

    static func alarms(_ stores: [StoreSeries]) -> [Alarm] {
        var runs: [Int64: RunKeys] = [:]
        for (storeIndex, series) in stores.enumerated() {
            for (index, day) in series.sales.enumerated() {
                if let day { runs[day.run, default: RunKeys()].positions.append((storeIndex, index)) }
            }
        }
        var alarms: [Alarm] = []
        for (run, keys) in runs.sorted(by: { $0.key < $1.key }) {
            let judged = keys.positions.contains { stores[$0.series].isJudged($0.index) }
            guard judged, let (lag, share) = bestLag(keys, stores) else { continue }
            let byStore = Dictionary(grouping: keys.positions, by: \.series)
            for (storeIndex, positions) in byStore.sorted(by: { $0.key < $1.key }) {
                let series = stores[storeIndex]
                let indices = positions.map(\.index)
                guard let first = indices.min(), let last = indices.max() else { continue }
                let cents = indices.reduce(Int64(0)) { $0 + (series.sales[$1]?.cents ?? 0) }
                let earlier = indices.reduce(Int64(0)) { sum, index in
                    sum + (index >= lag ? series.sales[index - lag]?.cents ?? 0 : 0)
                }
                alarms.append(
                    Alarm(
                        kind: .dateShift, feed: .salesAudit, store: series.store,
                        days: DateRange(start: series.date(first), end: series.date(last)), metric: "totalSales",
                        value: Double(cents) / 100, expected: Double(earlier) / 100, score: share, run: run,
                        note:
                            "\(Int((share * 100).rounded(.down)))% of the run's rows equal the store's rows \(lag) days earlier"
                    ))
            }
        }
        return alarms
    }

    /// The lag most of the run's keys match, with the share they make, when it reaches 90 %.
    private static func bestLag(_ keys: RunKeys, _ stores: [StoreSeries]) -> (lag: Int, share: Double)? {
        let total = Double(keys.positions.count)
        let best = lags.map { lag -> (Int, Double) in
            var matches = 0
            for position in keys.positions where position.index >= lag {
                // Indexing the stores in place: binding a series would retain its arrays per key.
                guard let day = stores[position.series].sales[position.index],
                    let earlier = stores[position.series].sales[position.index - lag]
                else { continue }
                if day.hasSameFigures(as: earlier) { matches += 1 }
            }
            return (lag, Double(matches) / total)
        }.max { $0.1 < $1.1 }
        guard let best, best.1 >= minimumShare else { return nil }
        return best
    }
}
