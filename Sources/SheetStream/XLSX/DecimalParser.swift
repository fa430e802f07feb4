/// Parses the decimal number text of `<v>` elements without allocating.
///
/// Uses Clinger's fast path (an integer mantissa below 2^53 scaled by an exact power of ten up
/// to 10^22 is correctly rounded by one multiplication or division) and falls back to the
/// standard library's correctly rounded parser for everything else.
enum DecimalParser {
    /// 10^0 … 10^22, each exact in a `Double`. Written out, so that the array is laid out when
    /// the program is built: made by a closure, it was initialised lazily, which cost a
    /// `swift_once` check on every number read.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The value of `bytes` (surrounding whitespace allowed), or `nil` if it is not a number.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        plainValue(bytes) ?? generalValue(bytes)
    }

    /// The value of the text almost every cell holds, `-?digits[.digits]` with at most 19
    /// digits and nothing else, in one lean pass; `nil` for any other text, which
    /// `generalValue` then reads.
    @inline(__always) private static func plainValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let base = bytes.baseAddress, bytes.count <= 20 else { return nil }
        let negative = bytes.count > 0 && base[0] == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0
        var fractionStart: Int?
        while index < bytes.count {
            let digit = base[index] &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
            } else if base[index] == UInt8(ascii: "."), fractionStart == nil {
                fractionStart = index + 1
            } else {
                return nil
            }
            index += 1
        }
        let fractionDigits = fractionStart.map { bytes.count - $0 } ?? 0
        let digits = bytes.count - (negative ? 1 : 0) - (fractionStart == nil ? 0 : 1)
        guard digits > 0, digits <= 19, mantissa < (1 << 53) else { return nil }
        let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    /// Any decimal text: surrounding whitespace, a sign, an exponent, any number of digits.
    private static func generalValue(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        var end = bytes.count
        while index < end, isSpace(bytes[index]) { index += 1 }
        while end > index, isSpace(bytes[end - 1]) { end -= 1 }
        guard index < end else { return nil }
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDigit = false
        while index < end, let digit = digitValue(bytes[index]) {
            sawDigit = true
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                if mantissa > 0 { digits += 1 }
            } else {
                scale += 1
            }
            index += 1
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end, let digit = digitValue(bytes[index]) {
                sawDigit = true
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa > 0 { digits += 1 }
                    scale -= 1
                }
                index += 1
            }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var sawExponentDigit = false
            while index < end, let digit = digitValue(bytes[index]) {
                sawExponentDigit = true
                if exponent < 100_000 { exponent = exponent * 10 + Int(digit) }
                index += 1
            }
            guard sawExponentDigit else { return nil }
            if exponentNegative { exponent = -exponent }
        }
        guard index == end else { return nil }
        let power = scale + exponent
        if digits <= 19, mantissa < (1 << 53), abs(power) <= 22 {
            var value = Double(mantissa)
            value = power >= 0 ? value * powersOfTen[power] : value / powersOfTen[-power]
            return negative ? -value : value
        }
        return Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
    }

    @inline(__always) private static func digitValue(_ byte: UInt8) -> UInt8? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? digit : nil
    }

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
