/// Eight values, sorted (a day's same weekdays in the 8 weeks before).
struct EightValues: RandomAccessCollection {
    private let values: (Double, Double, Double, Double, Double, Double, Double, Double)

    /// The values sorted by a network of compare-exchanges (Batcher's odd–even merge sort, 19 of
    /// them), which does not branch on the values: random data would mispredict every branch of
    /// a sort. `nil` when one is NaN.
    init?(
        sorting a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double,
        _ h: Double
    ) {
        guard !(a.isNaN || b.isNaN || c.isNaN || d.isNaN || e.isNaN || f.isNaN || g.isNaN || h.isNaN) else {
            return nil
        }
        var (a, b, c, d, e, f, g, h) = (a, b, c, d, e, f, g, h)
        Self.exchange(&a, &b)
        Self.exchange(&c, &d)
        Self.exchange(&e, &f)
        Self.exchange(&g, &h)
        Self.exchange(&a, &c)
        Self.exchange(&b, &d)
        Self.exchange(&e, &g)
        Self.exchange(&f, &h)
        Self.exchange(&b, &c)
        Self.exchange(&f, &g)
        Self.exchange(&a, &e)
        Self.exchange(&b, &f)
        Self.exchange(&c, &g)
        Self.exchange(&d, &h)
        Self.exchange(&c, &e)
        Self.exchange(&d, &f)
        Self.exchange(&b, &c)
        Self.exchange(&d, &e)
        Self.exchange(&f, &g)
        values = (a, b, c, d, e, f, g, h)
    }

    /// Puts the smaller of two values first.
    @inline(__always)
    private static func exchange(_ first: inout Double, _ second: inout Double) {
        let low = Swift.min(first, second)
        second = Swift.max(first, second)
        first = low
    }

    var startIndex: Int { 0 }
    var endIndex: Int { 8 }

    subscript(position: Int) -> Double {
        switch position {
        case 0: return values.0
        case 1: return values.1
        case 2: return values.2
        case 3: return values.3
        case 4: return values.4
        case 5: return values.5
        case 6: return values.6
        default: return values.7
        }
    }
}
