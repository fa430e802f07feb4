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
        guard values.count >= Self.minimumCount else { return nil }
        let center = Self.median(values)
        median = center
        let deviations = values.map { abs($0 - center) }
        spread = Self.normalScale * max(Self.median(deviations), Self.madFloor)
    }

    /// How many spreads `value` lies from the median.
    func score(_ value: Double) -> Double { abs(value - median) / spread }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
