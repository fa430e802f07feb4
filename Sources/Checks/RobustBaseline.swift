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
        for index in values.indices { values[index] = abs(values[index] - center) }
        Self.insertionSort(&values)
        self.init(median: center, mad: Self.medianOfSorted(values))
    }

    /// The baseline of eight values, sorted: their deviations sorted by the same network.
    init(sorted values: EightValues) {
        let center = Self.medianOfSorted(values)
        let deviations = EightValues(
            sorting: abs(values[0] - center), abs(values[1] - center), abs(values[2] - center),
            abs(values[3] - center), abs(values[4] - center), abs(values[5] - center), abs(values[6] - center),
            abs(values[7] - center))
        self.init(median: center, mad: deviations.map(Self.medianOfSorted) ?? .nan)
    }

    private init(median: Double, mad: Double) {
        self.median = median
        spread = Self.normalScale * max(mad, Self.madFloor)
    }

    /// How many spreads `value` lies from the median.
    func score(_ value: Double) -> Double { abs(value - median) / spread }

    /// The median of `values`: the middle one sorted, or the mean of the two middle ones. A few
    /// values (a store's weeks of history) are sorted by insertion, faster than the general sort.
    static func median(_ values: [Double]) -> Double {
        guard values.count <= 32 else { return medianOfSorted(values.sorted()) }
        var few = values
        return median(sorting: &few)
    }

    /// The median of `values` (none NaN), which it reorders: the same value as `median(_:)`,
    /// found by selection rather than a sort (the chain's level over many stores, each day).
    static func median(selecting values: inout [Double]) -> Double {
        values.withUnsafeMutableBufferPointer { median(selecting: $0) }
    }

    /// The same, of the values of `buffer` (none NaN), which it reorders.
    static func median(selecting buffer: UnsafeMutableBufferPointer<Double>) -> Double {
        guard !buffer.isEmpty else { return .nan }
        let middle = buffer.count / 2
        let upper = select(middle, in: buffer)
        guard buffer.count % 2 == 0 else { return upper }
        // Everything before `middle` is at most `upper`: the largest of it is the lower middle.
        var lower = -Double.infinity
        for index in 0..<middle { lower = max(lower, buffer[index]) }
        return (lower + upper) / 2
    }

    /// The value of rank `rank` (from 0, in ascending order) among `buffer`'s, which it reorders
    /// so that the values before `rank` are none larger. Quickselect whose partitions do not
    /// branch on the values (each value swapped to the front or left, the front moved by the
    /// comparison's 0 or 1): random values would mispredict every branch of Hoare's.
    private static func select(_ rank: Int, in buffer: UnsafeMutableBufferPointer<Double>) -> Double {
        var low = 0
        var high = buffer.count
        while high - low > 1 {
            // The median of the first, middle and last values as the pivot.
            let (first, middle, last) = (buffer[low], buffer[low + (high - low) / 2], buffer[high - 1])
            let pivot = max(min(first, middle), min(max(first, middle), last))
            let below = partition(buffer, low..<high) { $0 < pivot }
            if rank < below {
                high = below
                continue
            }
            // Then the pivot's equals: the pivot is one of the values, so the range shrinks.
            let equal = partition(buffer, below..<high) { $0 == pivot }
            if rank < equal { return pivot }
            low = equal
        }
        return buffer[low]
    }

    /// Moves the values of `range` for which `isFront` holds to its front, in one pass without
    /// branching on them; returns the end of the front.
    @inline(__always)
    private static func partition(
        _ buffer: UnsafeMutableBufferPointer<Double>, _ range: Range<Int>, _ isFront: (Double) -> Bool
    ) -> Int {
        var front = range.lowerBound
        for index in range {
            let value = buffer[index]
            buffer[index] = buffer[front]
            buffer[front] = value
            front += isFront(value) ? 1 : 0
        }
        return front
    }

    /// The median of a few values, which it sorts in place.
    static func median(sorting values: inout [Double]) -> Double {
        insertionSort(&values)
        return medianOfSorted(values)
    }

    /// Sorts a few values (at most 28 here) in place: faster than the general sort at this size.
    static func insertionSort(_ values: inout [Double]) {
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

    static func medianOfSorted<Sorted: RandomAccessCollection<Double>>(_ sorted: Sorted) -> Double {
        let middle = sorted.index(sorted.startIndex, offsetBy: sorted.count / 2)
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[sorted.index(before: middle)] + sorted[middle]) / 2
    }
}

/// Values by day that reference days are read from: an array from position 0, or a ring of the
/// last days by day number (`DayRing`). NaN where a day has no value.
protocol DayValues {
    subscript(_ position: Int) -> Double { get }
}

extension Array: DayValues where Element == Double {}

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
        judge(values, at: index, earliest: 0, threshold: threshold)
    }

    /// The same, for values whose reference days reach back no further than `earliest`.
    mutating func judge<Values: DayValues>(_ values: Values, at index: Int, earliest: Int, threshold: Double)
        -> Judgement
    {
        // Most days are usual by most of their 8 weeks (see `isUsualByMost`): nothing to gather.
        if index - 7 * Self.weeks >= earliest,
            Self.isUsualByMost(values[index], threshold: threshold, { values[index - 7 * ($0 + 1)] })
        {
            return .usual
        }
        return judgeGathering(values, at: index, earliest: earliest, threshold: threshold)
    }

    /// `judge` from the reference days gathered, without the shortcut of `isUsualByMost`.
    mutating func judgeGathering<Values: DayValues>(
        _ values: Values, at index: Int, earliest: Int, threshold: Double
    ) -> Judgement {
        gather(values, at: index, earliest: earliest)
        guard buffer.count >= RobustBaseline.minimumCount else { return .noBaseline }
        // Most days lie closer to the median than the threshold times the least spread there
        // can be, and so are usual whatever the spread: when every reference day lies that close
        // they need no sorting.
        let value = values[index]
        var lowest = Double.infinity
        var highest = -Double.infinity
        for reference in buffer {
            lowest = min(lowest, reference)
            highest = max(highest, reference)
        }
        if Self.isWithinReach(value, lowest: lowest, highest: highest, threshold: threshold) { return .usual }
        RobustBaseline.insertionSort(&buffer)
        return Self.judge(value, sorted: buffer, threshold: threshold) { RobustBaseline(reusing: &buffer) }
    }

    /// How `value` compares with eight reference days, sorted: as `judge` finds when it gathers
    /// them, without gathering or sorting them again.
    static func judge(_ value: Double, sorted references: EightValues, threshold: Double) -> Judgement {
        judge(value, sorted: references, threshold: threshold) { RobustBaseline(sorted: references) }
    }

    /// How `value` compares with sorted `references`, whose `baseline` is taken only when the
    /// median alone does not rule the value usual (most days): the second sort.
    private static func judge<References: RandomAccessCollection<Double>>(
        _ value: Double, sorted references: References, threshold: Double, baseline: () -> RobustBaseline?
    ) -> Judgement {
        guard !references.isEmpty else { return .noBaseline }
        if isUsual(value, sorted: references, threshold: threshold) { return .usual }
        guard let baseline = baseline() else { return .noBaseline }
        let score = baseline.score(value)
        return score > threshold ? .unusual(score: score, median: baseline.median) : .usual
    }

    /// Whether `value` is usual against sorted `references` (not empty) without their spread:
    /// every reference, or their median, lies closer to it than the threshold times the least
    /// spread there can be. Most days are; the rest need the spread.
    static func isUsual<References: RandomAccessCollection<Double>>(
        _ value: Double, sorted references: References, threshold: Double
    ) -> Bool {
        guard let lowest = references.first, let highest = references.last else { return false }
        if isWithinReach(value, lowest: lowest, highest: highest, threshold: threshold) { return true }
        return abs(value - RobustBaseline.medianOfSorted(references)) <= reach(threshold)
    }

    /// Whether at least 5 of 8 reference days (`reference(0)` … `reference(7)`) have a value
    /// and lie within reach of `value`, which is then usual, as `judge` would find, without
    /// sorting them: the 4th and 5th smallest are two of those 5 (3 at most lie outside), so
    /// their mean, the median, lies between them and within reach too (a rounded mean of two
    /// doubles lies between them, and a rounded difference grows with its operand). Every
    /// reference is read, so that the loop does not branch on the values.
    @inline(__always)
    static func isUsualByMost(_ value: Double, threshold: Double, _ reference: (Int) -> Double) -> Bool {
        let reach = reach(threshold)
        var near = 0
        for index in 0..<weeks { near += abs(value - reference(index)) <= reach ? 1 : 0 }
        return near >= RobustBaseline.minimumCount
    }

    /// The threshold times the least spread there can be: a value closer than that to the
    /// median is usual.
    private static func reach(_ threshold: Double) -> Double {
        threshold * RobustBaseline.normalScale * RobustBaseline.madFloor
    }

    /// Whether every reference day, from `lowest` to `highest`, lies within reach of `value`
    /// (then so does their median).
    private static func isWithinReach(_ value: Double, lowest: Double, highest: Double, threshold: Double) -> Bool {
        value - reach(threshold) <= lowest && value + reach(threshold) >= highest
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
    private mutating func gather<Values: DayValues>(_ values: Values, at index: Int, earliest: Int) {
        buffer.removeAll(keepingCapacity: true)
        var earlier = index - 7
        while earlier >= earliest, earlier >= index - 7 * Self.weeks {
            let value = values[earlier]
            if !value.isNaN { buffer.append(value) }
            earlier -= 7
        }
        if buffer.count < RobustBaseline.minimumCount {
            buffer.removeAll(keepingCapacity: true)
            earlier = index - 1
            while earlier >= earliest, earlier >= index - Self.fallbackDays {
                let value = values[earlier]
                if !value.isNaN { buffer.append(value) }
                earlier -= 1
            }
        }
    }
}
