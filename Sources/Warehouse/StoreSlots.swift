import Feeds

/// Store codes numbered in the order rows (or records) bring them (`RecurringKeys`: rows come
/// in key order, so each date or week lists the stores in the same order as the one before),
/// found by their bytes packed into an integer (codes of up to 7 bytes) without making a
/// string or hashing one per row.
struct StoreSlots {
    private(set) var codes: [String] = []
    private var numbering = RecurringKeys<Code>()
    /// Whether every code numbered is ASCII: then `==` of two codes with as many bytes is
    /// byte equality (Swift compares strings by canonical equivalence, under which a non-ASCII
    /// string such as "\u{212A}" equals an ASCII one, "K", of fewer bytes).
    private var codesAreASCII = true

    /// A store code as it is compared, byte for byte: packed when it fits, else its bytes.
    private enum Code: Hashable {
        case packed(UInt64)
        case bytes([UInt8])
    }

    /// The slot of the store code in `column` of `row`, numbering a new code `codes.count`.
    mutating func slot(of row: some ScannedRow, column: Int32) -> Int {
        guard let code = row.packedText(column) else {
            return slot(.bytes(row.bytes(column).map(Array.init) ?? [])) { row.text(column) }
        }
        return slot(.packed(code)) { row.text(column) }
    }

    /// The slot of `code`, numbering a new code `codes.count`. While every code numbered is
    /// ASCII, the recurring codes (the one after the last found, then that one) are compared as text
    /// first (byte for byte, as the packed lookup compares), before the code is packed.
    mutating func slot(of code: String) -> Int {
        if codesAreASCII,
            let recurring = codes.withUnsafeBufferPointer({ codes in
                numbering.recurringNumber { Self.sameASCII(codes[$0], code) }
            })
        {
            numbering.found(recurring)
            return recurring
        }
        return slot(Self.packed(code).map(Code.packed) ?? .bytes(Array(code.utf8))) { code }
    }

    /// Whether `code` has the bytes of `known`, an ASCII code.
    @inline(__always) private static func sameASCII(_ known: String, _ code: String) -> Bool {
        known.utf8.count == code.utf8.count && known == code
    }

    /// The slot of `code`; `text` makes the code's string for a new one.
    private mutating func slot(_ code: Code, text: () -> String) -> Int {
        let slot = numbering.number(of: code)
        if slot == codes.count {
            let made = text()
            if codesAreASCII, made.utf8.contains(where: { $0 >= 0x80 }) { codesAreASCII = false }
            codes.append(made)
        }
        return slot
    }

    /// A code's bytes packed as `ScannedRow.packedText` packs them; `nil` when longer than 7 bytes.
    private static func packed(_ code: String) -> UInt64? {
        let bytes = code.utf8
        guard bytes.count <= 7 else { return nil }
        var packed = UInt64(bytes.count) << 56
        var shift: UInt64 = 0
        for byte in bytes {
            packed |= UInt64(byte) << shift
            shift += 8
        }
        return packed
    }
}
