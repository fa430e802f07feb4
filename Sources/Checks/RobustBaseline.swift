import Foundation

/// The median and the scaled median absolute deviation of a few logarithms (SPEC section 18):
/// a robust centre and spread, so that one bad day among the reference days moves neither.
struct RobustBaseline {
    /// The least number of reference values a baseline is taken from.
    static let minimumCount = 5
    /// The least MAD: eight points estimate a spread poorly, and a steady store would alarm on
    /// ordinary days without it.
    static let madFloor = 0.15
    /// MAD × 1.4826 estimates the standard deviation of normally distributed values.
    static let normalScale = 1.4826

    /// The median of the values.
    let median: Double
    /// `normalScale × max(MAD, madFloor)`.
    let spread: Double

    /// The baseline of `values` (logarithms), `nil` when there are fewer than `minimumCount`.
    init?(_ values: [Double]) {
        var scratch = values
        self.init(reusing: &scratch)
    }

    /// The baseline of `values`, which it sorts and then overwrites with the deviations: no
    /// allocation, for the hot loop (see `ReferenceDays`).
    init?(reusing values: inout [Double]) {
        guard values.count >= Self.minimumCount else { return nil }
        let center = Self.median(sorting: &values)
        median = center
        for index in values.indices { values[index] = abs(values[index] - center) }
        Self.insertionSort(&values)
        spread = Self.normalScale * max(Self.medianOfSorted(values), Self.madFloor)
    }

    /// How many spreads `value` lies from the median.
    func score(_ value: Double) -> Double { abs(value - median) / spread }

    static func median(_ values: [Double]) -> Double { medianOfSorted(values.sorted()) }

    /// The median of a few values, which it sorts in place.
    static func median(sorting values: inout [Double]) -> Double {
        insertionSort(&values)
        return medianOfSorted(values)
    }

    /// Sorts a few values (at most 28 here) in place: faster than the general sort at this size.
    private static func insertionSort(_ values: inout [Double]) {
        values.withUnsafeMutableBufferPointer { buffer in
            guard buffer.count > 1 else { return }
            for next in 1..<buffer.count {
                let value = buffer[next]
                var slot = next
                while slot > 0, buffer[slot - 1] > value {
                    buffer[slot] = buffer[slot - 1]
                    slot -= 1
                }
                buffer[slot] = value
            }
        }
    }

    private static func medianOfSorted(_ sorted: [Double]) -> Double {
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}

/// A day's reference days picked out of a series into a buffer kept from day to day, so that
/// judging millions of store-days allocates once (SPEC section 18's baseline).
struct ReferenceDays {
    static let weeks = 8
    static let fallbackDays = 28

    private var buffer: [Double] = []

    init() { buffer.reserveCapacity(Self.fallbackDays) }

    /// How position `index` of `values` (NaN where there is no value) compares with its
    /// reference days: the same weekday in the previous 8 weeks when at least 5 of them have a
    /// value, else the previous 28 days.
    mutating func judge(_ values: [Double], at index: Int, threshold: Double) -> Judgement {
        gather(values, at: index)
        guard buffer.count >= RobustBaseline.minimumCount else { return .noBaseline }
        // Most days lie closer to the median than the threshold times the least spread there
        // can be, and so are usual whatever the spread. When every reference day lies that
        // close, so does their median, which then needs no sorting; else the median alone
        // rules most days out, and only the rest need the spread, the second sort.
        let value = values[index]
        let reach = threshold * RobustBaseline.normalScale * RobustBaseline.madFloor
        var lowest = Double.infinity
        var highest = -Double.infinity
        for reference in buffer {
            lowest = min(lowest, reference)
            highest = max(highest, reference)
        }
        if value - reach <= lowest, value + reach >= highest { return .usual }
        let center = RobustBaseline.median(sorting: &buffer)
        if abs(value - center) <= reach { return .usual }
        guard let baseline = RobustBaseline(reusing: &buffer) else { return .noBaseline }
        let score = baseline.score(value)
        return score > threshold ? .unusual(score: score, median: baseline.median) : .usual
    }

    /// What `judge` found.
    enum Judgement {
        /// Too few reference days.
        case noBaseline
        /// Within the threshold.
        case usual
        /// Over the threshold, with the robust z-score and the reference days' median.
        case unusual(score: Double, median: Double)
    }

    /// Puts the reference days' values of position `index` in the buffer.
    private mutating func gather(_ values: [Double], at index: Int) {
        buffer.removeAll(keepingCapacity: true)
        var earlier = index - 7
        while earlier >= 0, earlier >= index - 7 * Self.weeks {
            if !values[earlier].isNaN { buffer.append(values[earlier]) }
            earlier -= 7
        }
        if buffer.count < RobustBaseline.minimumCount {
            buffer.removeAll(keepingCapacity: true)
            earlier = index - 1
            while earlier >= 0, earlier >= index - Self.fallbackDays {
                if !values[earlier].isNaN { buffer.append(values[earlier]) }
                earlier -= 1
            }
        }
    }
}
