/// Maps values onto pixels along one axis, over a domain widened to round tick steps
/// (1, 2 or 5 times a power of ten) that always includes zero, since bars start there.
public struct LinearScale: Sendable, Equatable {
    /// The values at the two ends, multiples of `step`.
    public let lower: Double, upper: Double
    /// The distance between ticks.
    public let step: Double
    /// The pixels the two ends map to (`pixelsFrom` may exceed `pixelsTo`, as for a y axis).
    public let pixelsFrom: Double, pixelsTo: Double

    /// A scale covering `values` and zero with about `ticks` intervals.
    public init(covering values: [Double], ticks: Int = 5, pixels: (from: Double, to: Double)) {
        let low = min(0, values.min() ?? 0)
        var high = max(0, values.max() ?? 0)
        if high == low { high = low + 1 }
        let step = Self.niceStep((high - low) / Double(max(1, ticks)))
        self.step = step
        lower = (low / step).rounded(.down) * step
        upper = (high / step).rounded(.up) * step
        pixelsFrom = pixels.from
        pixelsTo = pixels.to
    }

    /// The pixel of a value.
    public func callAsFunction(_ value: Double) -> Double {
        pixelsFrom + (value - lower) / (upper - lower) * (pixelsTo - pixelsFrom)
    }

    /// The tick values from `lower` to `upper`, `step` apart.
    public var ticks: [Double] {
        let count = Int(((upper - lower) / step).rounded())
        return (0...count).map { lower + Double($0) * step }
    }

    /// The smallest 1, 2 or 5 × 10ⁿ at least `raw`.
    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        for multiple in [1.0, 2, 5, 10] where multiple * power >= raw { return multiple * power }
        return 10 * power
    }
}
