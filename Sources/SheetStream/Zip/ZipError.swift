/// A problem with a zip container or one of its entries, named by file and part.
public struct ZipError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public enum Reason: Sendable, Equatable {
        case cannotOpen(String)
        case notAZip
        case encryptedOrLegacy
        case truncated(String)
        case malformed(String)
        case encryptedEntry
        case unsupportedMethod(Int)
        case crcMismatch(expected: UInt32, computed: UInt32)
        case sizeMismatch(declared: UInt64, actual: UInt64)
        case entryTooLarge(declared: UInt64, limit: UInt64)
        case compressionRatioTooHigh(ratio: UInt64, limit: UInt64)
        case inflate(String)
        case missingPart
        /// Two entries name the same part (equal ignoring case, `\` read as `/`).
        case duplicatePart(first: String, second: String)
        /// The entry's local header names another part than its central-directory entry.
        case localNameMismatch(local: String)
    }

    /// The zip file's path.
    public var file: String
    /// The entry (part) name, when the problem is with one entry.
    public var part: String?
    public var reason: Reason

    public init(file: String, part: String? = nil, _ reason: Reason) {
        self.file = file
        self.part = part
        self.reason = reason
    }

    public var description: String {
        let place = part.map { "\(file): \($0)" } ?? file
        return "\(place): \(message)"
    }

    private var message: String {
        switch reason {
        case .cannotOpen(let why): return "cannot open: \(why)"
        case .notAZip: return "not a zip container (no end-of-central-directory record), so not an XLSX file"
        case .encryptedOrLegacy:
            return
                "encrypted or not an XLSX: this is an OLE compound file, the container of password-protected workbooks and legacy .xls files"
        case .truncated(let what): return "truncated zip: \(what)"
        case .malformed(let what): return "malformed zip: \(what)"
        case .encryptedEntry: return "entry is encrypted; password-protected parts cannot be read"
        case .unsupportedMethod(let method):
            return "unsupported compression method \(method) (expected 0 stored or 8 deflate)"
        case .crcMismatch(let expected, let computed):
            return "CRC-32 mismatch: central directory says \(hex(expected)), data gives \(hex(computed))"
        case .sizeMismatch(let declared, let actual):
            return "size mismatch: central directory says \(declared) bytes, data inflates to \(actual)"
        case .entryTooLarge(let declared, let limit):
            return "entry inflates to \(declared) bytes, over the limit of \(limit)"
        case .compressionRatioTooHigh(let ratio, let limit):
            return "compression ratio \(ratio):1 is over the limit of \(limit):1 (a zip bomb?)"
        case .inflate(let why): return "corrupt deflate data: \(why)"
        case .missingPart: return "part is missing from the package"
        case .duplicatePart(let first, let second):
            return
                "entries \"\(first)\" and \"\(second)\" name the same part; a package may hold a part name once, compared ignoring case (ECMA-376 Part 2, §9.1.1.1)"
        case .localNameMismatch(let local):
            return
                "the entry's local header names \"\(local)\" instead; an entry carries one name in both headers (APPNOTE 4.3.7, 4.3.12), so the file is refused rather than read one way or the other"
        }
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
