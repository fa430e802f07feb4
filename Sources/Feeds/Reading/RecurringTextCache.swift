/// Values worked out once per distinct text, for texts that recur in a pattern (the texts are
/// numbered by `RecurringKeys`; equal strings that share storage, as a workbook's shared
/// strings do, compare without reading their bytes). Past `limit` texts it starts afresh, so a
/// file of ever-new text keeps it small.
struct RecurringTextCache<Value> {
    private var texts = RecurringKeys<String>()
    private var values: [Value] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    /// The value of `text`, made by `make` the first time it is asked for.
    mutating func value(of text: String, _ make: () -> Value) -> Value {
        var number = texts.number(of: text)
        if number == values.count {
            // A new text past the limit starts the cache afresh, with it as the first.
            if number >= limit {
                texts.removeAll()
                values.removeAll(keepingCapacity: true)
                number = texts.number(of: text)
            }
            values.append(make())
        }
        return values[number]
    }
}
