/// Decodes XML's references: the five predefined entities (`&amp;` `&lt;` `&gt;` `&quot;`
/// `&apos;`) and character references (`&#38;`, `&#x26;`). No other entity can exist, since a
/// DOCTYPE (where entities are declared) is refused.
enum XMLReferences {
    /// A reference is at most this long: `&#x10FFFF;` or `&#1114111;` (leading zeros aside).
    static let maxLength = 32

    /// Appends `bytes` to `output` with every reference decoded (unless `decodingReferences` is
    /// false, as in a CDATA section) and, when `normalizingLineEnds`, CR LF and lone CR turned
    /// into LF (XML 1.0 §2.11).
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, into output: inout ByteBuffer, normalizingLineEnds: Bool = false,
        decodingReferences: Bool = true
    ) throws(XMLReferenceError) {
        var index = 0
        var runStart = 0
        func flushRun(upTo end: Int) {
            if end > runStart { output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
        }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "&") where decodingReferences:
                flushRun(upTo: index)
                guard let semicolon = bytes[index...].prefix(maxLength).firstIndex(of: UInt8(ascii: ";")) else {
                    throw XMLReferenceError(text: String(decoding: bytes[index...].prefix(12), as: UTF8.self))
                }
                let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<semicolon])
                guard let scalar = scalar(named: name) else {
                    throw XMLReferenceError(text: String(decoding: bytes[index...semicolon], as: UTF8.self))
                }
                output.append(scalar)
                index = semicolon + 1
                runStart = index
            case UInt8(ascii: "\r") where normalizingLineEnds:
                flushRun(upTo: index)
                output.append(UInt8(ascii: "\n"))
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { index += 1 }
                runStart = index
            default:
                index += 1
            }
        }
        flushRun(upTo: bytes.count)
    }

    /// The character a reference's name (between `&` and `;`) stands for, if it is a valid one.
    private static func scalar(named name: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        guard let first = name.first else { return nil }
        if first == UInt8(ascii: "#") {
            let digits = name.dropFirst()
            let hexadecimal = digits.first == UInt8(ascii: "x")
            guard let value = number(hexadecimal ? digits.dropFirst() : digits, radix: hexadecimal ? 16 : 10),
                isXMLCharacter(value)
            else { return nil }
            return Unicode.Scalar(value)
        }
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: return nil
        }
    }

    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt32) -> UInt32? {
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt32(byte - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt32(byte - UInt8(ascii: "A")) + 10
            default: return nil
            }
            value = value * radix + digit
            guard value <= 0x10FFFF else { return nil }
        }
        return value
    }

    /// XML 1.0's `Char` production: tab, LF, CR, and everything from space up except the
    /// surrogates and U+FFFE/U+FFFF.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}

/// A reference that is not one of XML's predefined entities or a valid character reference.
struct XMLReferenceError: Error {
    /// The reference as written (or its start, when unterminated).
    let text: String
}

extension ByteBuffer {
    /// Appends one character as UTF-8.
    mutating func append(_ scalar: Unicode.Scalar) {
        for unit in scalar.utf8 { append(unit) }
    }
}
