/// The chain's level on each day, per daily measure: the median over stores of ln(value) that
/// day (NaN when fewer than `minimumStores` stores have a value). Subtracted from a store's
/// logarithms, it leaves how the store did relative to the chain (see `OutlierCheck`). A day
/// whose level is itself an outlier against the chain's same weekdays before it (a whole file
/// with its decimal shifted) is marked unusual: there the chain is no yardstick.
struct ChainIndex {
    /// The least number of stores a day's level is taken from.
    static let minimumStores = 5

    /// The first day (days since the epoch) and, per measure, the level of each day from it.
    private let first: Int
    private let levels: [[Double]]
    /// Per measure and day, whether the day's level is an outlier of the chain's own history.
    private let unusual: [[Bool]]

    /// The index of `stores`, whose measures' logarithms are `logs[store][measure][day]`.
    init(stores: [StoreSeries], logs: [[[Double]]], threshold: Double) {
        let origin = stores.map(\.first).min() ?? 0
        first = origin
        let last = stores.map { $0.first + $0.sales.count }.max() ?? origin
        let measureCount = logs.first?.count ?? 0
        levels = (0..<measureCount).map { measure in
            var byDay = Array(repeating: [Double](), count: last - origin)
            for (series, storeLogs) in zip(stores, logs) {
                for (index, value) in storeLogs[measure].enumerated() where !value.isNaN {
                    byDay[series.first + index - origin].append(value)
                }
            }
            // Found by selection (the same value as a sort's median): a thousand stores a day.
            return byDay.indices.map { day in
                byDay[day].count >= Self.minimumStores ? RobustBaseline.median(selecting: &byDay[day]) : .nan
            }
        }
        var reference = ReferenceDays()
        unusual = levels.map { level in
            level.indices.map { day in
                guard !level[day].isNaN, case .unusual = reference.judge(level, at: day, threshold: threshold) else {
                    return false
                }
                return true
            }
        }
    }

    /// The levels of `measure` for the `count` days from `seriesFirst` (days since the epoch),
    /// NaN on a day the chain is no yardstick (too few stores, or the chain itself unusual).
    func offsets(measure: Int, first seriesFirst: Int, count: Int) -> [Double] {
        (seriesFirst..<(seriesFirst + count)).map { day in
            let position = day - first
            guard levels[measure].indices.contains(position), !unusual[measure][position] else { return .nan }
            return levels[measure][position]
        }
    }
}
