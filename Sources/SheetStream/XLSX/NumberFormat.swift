/// How a cell's number format makes a reader present its number (ECMA-376 Part 1, §18.8.30–31).
public enum NumberFormatKind: Sendable, Equatable {
    /// A plain number.
    case number
    /// A date, time or date-time: the number is a serial in the workbook's date system.
    case dateTime
    /// An elapsed-time format such as `[h]:mm`: the number stays a number.
    case duration
}

/// Classifies number formats as dates or not.
public enum NumberFormat {
    /// Built-in format ids that are dates or times: 14–22 and 45, 47 (ECMA-376 §18.8.30), and the
    /// East Asian date ids 27–36 and 50–58. Id 46 (`[h]:mm:ss`) is an elapsed time, a duration.
    public static func kind(builtinId id: Int) -> NumberFormatKind {
        switch id {
        case 14...22, 27...36, 45, 47, 50...58: return .dateTime
        case 46: return .duration
        default: return .number
        }
    }

    /// Classifies a custom format code by the tokens of its first section outside quotes,
    /// brackets and escapes: `d`, `m`, `y`, `h` or `s` make it a date; an elapsed-time bracket
    /// (`[h]`, `[mm]`, `[ss]`) makes it a duration; colour and locale brackets are ignored.
    public static func kind(code: String) -> NumberFormatKind {
        let bytes = Array(code.utf8)
        if bytes.count == 7, String(decoding: bytes, as: UTF8.self).lowercased() == "general" { return .number }
        var hasDateToken = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: ";"):
                return hasDateToken ? .dateTime : .number
            case UInt8(ascii: "\""):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                index += 1
            case UInt8(ascii: "\\"), UInt8(ascii: "_"), UInt8(ascii: "*"):
                index += 1
            case UInt8(ascii: "["):
                let start = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "]") { index += 1 }
                let inside = bytes[start..<min(index, bytes.count)].map { $0 | 0x20 }
                index += 1
                if let first = inside.first, [UInt8(ascii: "h"), UInt8(ascii: "m"), UInt8(ascii: "s")].contains(first),
                    inside.allSatisfy({ $0 == first })
                {
                    return .duration
                }
            default:
                switch byte | 0x20 {
                case UInt8(ascii: "d"), UInt8(ascii: "m"), UInt8(ascii: "y"), UInt8(ascii: "h"), UInt8(ascii: "s"):
                    hasDateToken = true
                default: break
                }
            }
        }
        return hasDateToken ? .dateTime : .number
    }
}
