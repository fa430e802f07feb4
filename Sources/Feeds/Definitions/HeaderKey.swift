/// Header text reduced for matching: lowercased, letters and digits only, so that `Net Sales`,
/// `NET_SALES` and `net sales ($)` all become `netsales`; `#` reads as the word `no` first, so
/// `Store #`, `Store#` and `Store No` all become `storeno` (SPEC section 3).
public enum HeaderKey {
    public static func normalize(_ text: String) -> String {
        if let ascii = normalizeASCII(text) { return ascii }
        var key = ""
        for scalar in text.unicodeScalars {
            if scalar == "#" {
                key += "no"
            } else if scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                key.unicodeScalars.append(contentsOf: String(scalar).lowercased().unicodeScalars)
            }
        }
        return key
    }

    /// The same reduction on ASCII bytes alone (nearly every header, and every data cell a
    /// repeated-header check looks at); `nil` when the text is not ASCII.
    private static func normalizeASCII(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte | 0x20)
            case UInt8(ascii: "#"): bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "o")])
            case 0x80...: return nil
            default: continue
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
