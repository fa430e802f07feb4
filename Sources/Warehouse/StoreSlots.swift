/// Store codes numbered in the order rows bring them, found by their bytes packed into an
/// integer (codes of up to 7 bytes) without making a string per row. Rows come in key order, so
/// each date (or week) lists the stores in the same order as the one before: the slot after the
/// last one found (or the first, after the last) is tried first, and only a miss is looked up.
struct StoreSlots {
    private(set) var codes: [String] = []
    /// Each slot's packed code (`nil` for a longer code).
    private var packed: [UInt64?] = []
    private var slotByCode: [UInt64: Int] = [:]
    private var slotByLongCode: [String: Int] = [:]
    private var last = -1

    /// The slot of the store code in `column` of `row`, numbering a new code `codes.count`.
    mutating func slot(of row: some ScannedRow, column: Int32) -> Int {
        guard let code = row.packedText(column) else { return slot(of: row.text(column)) }
        let next = last + 1 < packed.count ? last + 1 : 0
        if next < packed.count, packed[next] == code {
            last = next
            return next
        }
        if let known = slotByCode[code] {
            last = known
            return known
        }
        return add(row.text(column), packed: code)
    }

    /// The slot of `code`, numbering a new code `codes.count`.
    mutating func slot(of code: String) -> Int {
        let packedCode = Self.packed(code)
        if let known = packedCode.map({ slotByCode[$0] }) ?? slotByLongCode[code] {
            last = known
            return known
        }
        return add(code, packed: packedCode)
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
        let bytes = Array(code.utf8)
        guard bytes.count <= 7 else { return nil }
        var packed = UInt64(bytes.count) << 56
        for (index, byte) in bytes.enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
        return packed
    }
}
