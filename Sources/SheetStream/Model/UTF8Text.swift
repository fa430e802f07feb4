/// Fast UTF-8 checks and decoding for the readers: CSV fields (ASCII and valid UTF-8 are kept
/// as they are; anything else is reported as invalid so the caller can fall back to
/// Windows-1252) and the text of worksheet XML.
enum UTF8Text {
    @inline(__always) static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var combined: UInt8 = 0
        for byte in bytes { combined |= byte }
        return combined < 0x80
    }

    /// RFC 3629 validation: no overlong forms, no surrogates, nothing above U+10FFFF.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let (length, lower, upper) = sequence(lead), index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// The length of the sequence a lead byte starts, and the range its second byte must lie in
    /// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); `nil` for a byte
    /// that starts no sequence.
    @inline(__always) private static func sequence(_ lead: UInt8) -> (length: Int, lower: UInt8, upper: UInt8)? {
        switch lead {
        case 0xC2...0xDF: return (2, 0x80, 0xBF)
        case 0xE0: return (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (3, 0x80, 0xBF)
        case 0xED: return (3, 0x80, 0x9F)
        case 0xF0: return (4, 0x90, 0xBF)
        case 0xF1...0xF3: return (4, 0x80, 0xBF)
        case 0xF4: return (4, 0x80, 0x8F)
        default: return nil
        }
    }

    /// The scalar of the multi-byte sequence at `index` and its length; `nil` when it is not
    /// valid UTF-8 (or ends past the buffer).
    static func scalar(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (scalar: UInt32, length: Int)? {
        guard index < bytes.count, let (length, lower, upper) = sequence(bytes[index]), index + length <= bytes.count,
            bytes[index + 1] >= lower, bytes[index + 1] <= upper
        else { return nil }
        var scalar = UInt32(bytes[index]) & (0xFF >> UInt32(length + 1))
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            scalar = scalar << 6 | UInt32(byte & 0x3F)
        }
        return (scalar, length)
    }
}
