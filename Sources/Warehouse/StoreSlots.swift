/// Store codes numbered in the order rows (or records) bring them, found by their bytes packed
/// into an integer (codes of up to 7 bytes) without making a string or hashing one per row.
/// Rows come in key order, so each date (or week) lists the stores in the same order as the
/// one before: the slot after the last one found (or the first, after the last) is tried
/// first, and only a miss is looked up.
struct StoreSlots {
    private(set) var codes: [String] = []
    /// Each slot's packed code (`nil` for a longer code).
    private var packed: [UInt64?] = []
    private var slotByCode: [UInt64: Int] = [:]
    private var slotByLongCode: [String: Int] = [:]
    private var last = -1

    /// The slot of the store code in `column` of `row`, numbering a new code `codes.count`.
    mutating func slot(of row: some ScannedRow, column: Int32) -> Int {
        guard let code = row.packedText(column) else { return slot(ofLongCode: row.text(column)) }
        return slot(packed: code) { row.text(column) }
    }

    /// The slot of `code`, numbering a new code `codes.count`.
    mutating func slot(of code: String) -> Int {
        guard let packedCode = Self.packed(code) else { return slot(ofLongCode: code) }
        return slot(packed: packedCode) { code }
    }

    /// The slot of a code of up to 7 bytes, packed; `text` makes the code's string for a new one.
    private mutating func slot(packed code: UInt64, text: () -> String) -> Int {
        let next = last + 1 < packed.count ? last + 1 : 0
        if next < packed.count, packed[next] == code {
            last = next
            return next
        }
        if let known = slotByCode[code] {
            last = known
            return known
        }
        return add(text(), packed: code)
    }

    private mutating func slot(ofLongCode code: String) -> Int {
        if let known = slotByLongCode[code] {
            last = known
            return known
        }
        return add(code, packed: nil)
    }

    private mutating func add(_ code: String, packed packedCode: UInt64?) -> Int {
        let slot = codes.count
        if let packedCode { slotByCode[packedCode] = slot } else { slotByLongCode[code] = slot }
        codes.append(code)
        packed.append(packedCode)
        last = slot
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
