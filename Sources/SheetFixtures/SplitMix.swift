import Foundation

/// SplitMix64: a tiny, fast, seeded generator, so every run of a test or a benchmark writes the
/// same data (and a failure can be reproduced).
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// Uniform in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// Uniform in `range` (not empty).
    public mutating func int(_ range: Range<Int>) -> Int { range.lowerBound + Int(next() % UInt64(range.count)) }

    /// Standard normal (Box–Muller).
    public mutating func normal() -> Double {
        let u = max(unit(), 1e-12)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * unit())
    }

    /// Poisson with mean `lambda` (Knuth's method: for small means).
    public mutating func poisson(_ lambda: Double) -> Int {
        let limit = exp(-lambda)
        var product = unit()
        var count = 0
        while product > limit {
            count += 1
            product *= unit()
        }
        return count
    }
}
