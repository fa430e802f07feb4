/// Decodes the `_xHHHH_` escapes OOXML uses for characters XML cannot carry
/// (ECMA-376 Part 1, §22.9.2.19 ST_Xstring): `_x000D_` is a carriage return, `_x005F_` a literal
/// underscore (so `_x005F_x000D_` reads as the text `_x000D_`), and surrogate pairs written as two
/// escapes form one character. Only a lowercase `_x` opens an escape (the hex digits may be either
/// case): Excel writes `_X0041_` literally and reads it back as that text.
enum OOXMLEscapes {
    /// The text of UTF-8 `bytes` with escapes decoded.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let first = bytes.firstIndex(of: UInt8(ascii: "_")), containsEscape(bytes, from: first) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "_"), let unit = codeUnit(bytes, at: index) {
                if (0xD800...0xDBFF).contains(unit), let low = codeUnit(bytes, at: index + 7),
                    (0xDC00...0xDFFF).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))
                {
                    output.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index += 14
                    continue
                }
                if let scalar = Unicode.Scalar(UInt32(unit)) {
                    output.append(contentsOf: Array(String(Character(scalar)).utf8))
                    index += 7
                    continue
                }
            }
            output.append(bytes[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The text of a String with escapes decoded.
    static func decode(_ text: String) -> String {
        var copy = text
        return copy.withUTF8 { decode($0) }
    }

    private static func containsEscape(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index + 6 < bytes.count {
            if bytes[index] == UInt8(ascii: "_"), codeUnit(bytes, at: index) != nil { return true }
            index += 1
        }
        return false
    }

    /// The UTF-16 code unit of an `_xHHHH_` escape starting at `index`, if there is one.
    @inline(__always) private static func codeUnit(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt16? {
        guard index + 6 < bytes.count, bytes[index] == UInt8(ascii: "_"), bytes[index + 1] == UInt8(ascii: "x"),
            bytes[index + 6] == UInt8(ascii: "_")
        else { return nil }
        var value: UInt16 = 0
        for offset in 2...5 {
            guard let digit = hexValue(bytes[index + offset]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    @inline(__always) private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
