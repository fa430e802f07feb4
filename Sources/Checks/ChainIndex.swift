/// The chain's level on each day, per daily measure: the median over stores of ln(value) that
/// day (NaN when fewer than `minimumStores` stores have a value). Subtracted from a store's
/// logarithms, it leaves how the store did relative to the chain (see `OutlierCheck`).
struct ChainIndex {
    /// The least number of stores a day's level is taken from.
    static let minimumStores = 5

    /// The first day (days since the epoch) and, per measure, the level of each day from it.
    private let first: Int
    private let levels: [[Double]]

    /// The index of `stores`, whose measures' logarithms are `logs[store][measure][day]`.
    init(stores: [StoreSeries], logs: [[[Double]]]) {
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
            return byDay.map { $0.count >= Self.minimumStores ? RobustBaseline.median($0) : .nan }
        }
    }

    /// The levels of `measure` for a series starting on day `seriesFirst`, one per position.
    func offsets(measure: Int, first seriesFirst: Int) -> ArraySlice<Double> {
        let start = seriesFirst - first
        return levels[measure][start...]
    }
}
