/// Exact fixed-point conversion into integer units: money into cents (2 digits), percents into
/// millionths (6 digits), rounding half away from zero (SPEC section 4).
///
/// A number is judged by its decimal form, never by binary arithmetic on it: `0.285` dollars is
/// 29 cents, although `0.285 * 100` in binary is `28.499999999999996`.
public enum FixedPoint {
    /// The largest magnitude accepted, in units: results stay far from `Int64`'s limits, so that
    /// products of two of them and sums of many such products fit an `Int128`.
    public static let limit: Int64 = 1_000_000_000_000_000

    /// `value × 10^digits`, rounded half away from zero on the value's shortest decimal form;
    /// `nil` when it is not finite or exceeds `limit`.
    public static func scaled(_ value: Double, digits: Int) -> Int64? {
        guard value.isFinite else { return nil }
        let units = value * power(digits)
        guard abs(units) <= Double(limit) else { return nil }
        // Nearly every value (money with at most two decimals) is an integer in units to within
        // binary noise: take it. The rest go through their decimal text. (Within 1e-7 of an
        // integer the rounding rules agree: the default one is libm's `rint`, which needs no
        // test of halves, rather than `round`.)
        let rounded = units.rounded(.toNearestOrEven)
        if abs(units - rounded) < 1e-7 { return Int64(rounded) }
        return scaled(text: value.description, digits: digits)
    }

    /// Decimal text (`1234.5`, `-0.125`, `1.2E3`, `.5`) × 10^digits, rounded half away from
    /// zero, computed on the digits themselves; `nil` when the text is not such a number or the
    /// result exceeds `limit`.
    public static func scaled(text: String, digits: Int) -> Int64? {
        if let plain = scaledPlainDecimal(text, digits: digits) { return plain }
        var utf8 = Substring(text).utf8[...]
        var negative = false
        if let sign = utf8.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            utf8 = utf8.dropFirst()
        }
        var mantissa: [UInt8] = []
        var pointPosition: Int?
        var exponent = 0
        var sawDigit = false
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                // Leading zeros carry no digits (but do count before the point).
                if !(mantissa.isEmpty && byte == UInt8(ascii: "0")) {
                    mantissa.append(byte - UInt8(ascii: "0"))
                } else if pointPosition != nil {
                    pointPosition = (pointPosition ?? 0) - 1
                }
            } else if byte == UInt8(ascii: "."), pointPosition == nil {
                pointPosition = mantissa.count
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard let parsed = Int(String(decoding: utf8[utf8.index(after: index)...], as: UTF8.self)),
                    abs(parsed) < 400
                else { return nil }
                exponent = parsed
                index = utf8.endIndex
                break
            } else {
                return nil
            }
            index = utf8.index(after: index)
        }
        guard sawDigit else { return nil }
        // The value is 0.<mantissa> × 10^(integerDigits).
        let integerDigits = (pointPosition ?? mantissa.count) + exponent
        let shift = integerDigits + digits - mantissa.count
        var result: Int64 = 0
        let kept = shift >= 0 ? mantissa.count : mantissa.count + shift
        for digit in mantissa.prefix(max(0, kept)) {
            guard let next = multiplyAdd(result, 10, Int64(digit)) else { return nil }
            result = next
        }
        if shift > 0 {
            for _ in 0..<shift {
                guard result != 0 else { break }
                guard let next = multiplyAdd(result, 10, 0) else { return nil }
                result = next
            }
        } else if kept >= 0, kept < mantissa.count, mantissa[kept] >= 5 {
            result += 1
        }
        guard result <= limit else { return nil }
        return negative ? -result : result
    }

    /// The fast path of `scaled(text:digits:)` for `-?[0-9]*(.[0-9]*)?` with at most 17
    /// significant digits (nearly every export's numbers), in one pass with no allocation;
    /// `nil` for anything else, which the general path then reads.
    private static func scaledPlainDecimal(_ text: String, digits: Int) -> Int64? {
        text.withUTF8Bytes { scaledPlainDecimal($0, digits: digits) }
    }

    private static func scaledPlainDecimal(_ utf8: UnsafeBufferPointer<UInt8>, digits: Int) -> Int64? {
        var result: Int64 = 0
        var negative = false
        var fractionDigits = -1
        var roundUp = false
        var sawDigit = false
        var significant = 0
        for (index, byte) in utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                sawDigit = true
                if fractionDigits >= digits {
                    // The first digit past the kept ones rounds; later ones cannot change it.
                    if fractionDigits == digits { roundUp = byte >= UInt8(ascii: "5") }
                    fractionDigits += 1
                    continue
                }
                if result != 0 || byte != UInt8(ascii: "0") { significant += 1 }
                guard significant <= 17 else { return nil }
                result = result * 10 + Int64(byte - UInt8(ascii: "0"))
                if fractionDigits >= 0 { fractionDigits += 1 }
            case UInt8(ascii: "."):
                guard fractionDigits < 0 else { return nil }
                fractionDigits = 0
            case UInt8(ascii: "-") where index == 0:
                negative = true
            default:
                return nil
            }
        }
        guard sawDigit else { return nil }
        for _ in min(max(0, fractionDigits), digits)..<digits {
            let (scaled, overflow) = result.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            result = scaled
        }
        if roundUp { result += 1 }
        guard result <= limit else { return nil }
        return negative ? -result : result
    }

    private static func multiplyAdd(_ value: Int64, _ factor: Int64, _ addend: Int64) -> Int64? {
        let (product, overflow) = value.multipliedReportingOverflow(by: factor)
        guard !overflow, product <= limit else { return nil }
        return product + addend
    }

    private static func power(_ digits: Int) -> Double {
        // The digits money and percents use, without a chain of multiplications per value.
        switch digits {
        case 2: return 100
        case 4: return 10_000
        case 6: return 1_000_000
        default:
            var result = 1.0
            for _ in 0..<digits { result *= 10 }
            return result
        }
    }
}
