/// Plain decimal digits: the numbers spreadsheets write as digits only (row numbers, style and
/// shared-string indices, counts in CSV fields), read without `Int(String)` or floating point.
public enum ASCIIDigits {
    /// The value of 1 to `maxCount` ASCII digits and nothing else (no sign, no space); `nil`
    /// for anything else. `maxCount` at most 18, so that the value cannot overflow.
    @inlinable @inline(__always)
    public static func value(of bytes: UnsafeBufferPointer<UInt8>, maxCount: Int) -> Int? {
        guard !bytes.isEmpty, bytes.count <= maxCount else { return nil }
        var value = 0
        for byte in bytes {
            let digit = byte &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
        }
        return value
    }
}
