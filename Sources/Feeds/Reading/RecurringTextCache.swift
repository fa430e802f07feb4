/// Values worked out once per distinct text, for texts that recur in a pattern: a store-day
/// export lists the same stores in the same order date after date, and each date on a run of
/// rows. The text of the last lookup, then the one stored after it (wrapping to the first),
/// are compared before hashing (equal strings that share storage, as a workbook's shared
/// strings do, compare without reading their bytes); only a miss is hashed. Past `limit`
/// texts it starts afresh, so a file of ever-new text keeps it small.
struct RecurringTextCache<Value> {
    private var texts: [String] = []
    private var values: [Value] = []
    private var slots: [String: Int] = [:]
    /// The slot of the last lookup (-1 before the first).
    private var last = -1
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value of `text`, made by `make` the first time it is asked for.
    mutating func value(of text: String, _ make: () -> Value) -> Value {
        if last >= 0, texts[last] == text { return values[last] }
        let next = last + 1 < texts.count ? last + 1 : 0
        if next < texts.count, texts[next] == text {
            last = next
            return values[next]
        }
        if let slot = slots[text] {
            last = slot
            return values[slot]
        }
        if texts.count >= limit {
            texts.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
            slots.removeAll(keepingCapacity: true)
        }
        let value = make()
        last = texts.count
        slots[text] = last
        texts.append(text)
        values.append(value)
        return value
    }
}
