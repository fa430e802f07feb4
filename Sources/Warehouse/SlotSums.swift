/// Measures per store slot (a `StoreSlots` number), and which slots any row reached: a scan adds
/// into an array instead of hashing a store-month key per store.
struct SlotSums {
    private(set) var sums: [MeasureSums] = []
    /// Whether a row (or a rollup) reached the slot; a sum of 0 still names its store.
    private(set) var present: [Bool] = []

    /// Applies `change` to the sum of `slot`, which counts as reached from then on.
    mutating func update(_ slot: Int, _ change: (inout MeasureSums) -> Void) {
        if slot >= sums.count {
            sums += repeatElement(MeasureSums(), count: slot - sums.count + 1)
            present += repeatElement(false, count: slot - present.count + 1)
        }
        present[slot] = true
        change(&sums[slot])
    }

    /// Adds every reached slot of `other` (or takes it away, when `subtracting`).
    mutating func add(_ other: SlotSums, subtracting: Bool = false) {
        for (slot, isPresent) in other.present.enumerated() where isPresent {
            update(slot) { sum in
                if subtracting {
                    sum -= other.sums[slot]
                } else {
                    sum += other.sums[slot]
                }
            }
        }
    }

    /// The sum of `slot`; `nil` when no row reached it.
    func sum(_ slot: Int) -> MeasureSums? { slot < present.count && present[slot] ? sums[slot] : nil }
}

/// Sums per calendar month (`YYYY-MM`) and store slot, as one scan of the feed tables or of the
/// rollups meets them (a few months each).
struct MonthSlotSums {
    private(set) var months: [String] = []
    private(set) var byMonth: [SlotSums] = []

    /// The position of `month`, added when new.
    mutating func position(of month: String) -> Int {
        if let known = months.firstIndex(of: month) { return known }
        months.append(month)
        byMonth.append(SlotSums())
        return months.count - 1
    }

    /// Applies `change` to the sum of `slot` in the month at `position`.
    mutating func update(month position: Int, slot: Int, _ change: (inout MeasureSums) -> Void) {
        byMonth[position].update(slot, change)
    }

    /// The sums of `month`, empty when the scan met none of its rows.
    func sums(of month: String) -> SlotSums { months.firstIndex(of: month).map { byMonth[$0] } ?? SlotSums() }

    /// Keyed by store code and month, for the callers that look sums up by key.
    func keyed(by stores: StoreSlots) -> [StoreMonth: MeasureSums] {
        var keyed: [StoreMonth: MeasureSums] = [:]
        keyed.reserveCapacity(byMonth.reduce(0) { $0 + $1.present.count })
        for (month, sums) in zip(months, byMonth) {
            for slot in sums.present.indices {
                if let sum = sums.sum(slot) { keyed[StoreMonth(store: stores.codes[slot], month: month)] = sum }
            }
        }
        return keyed
    }
}

/// Measures per part of a `Warehouse.measures(of:)` call and per store: a sum per store that has
/// rows in the part, numbered as `stores` lists them.
public struct PartMeasures: Sendable {
    /// The store codes met, in the numbering of `measures(part:store:)`.
    public let stores: [String]
    private let parts: [SlotSums]

    init(stores: StoreSlots, parts: [SlotSums]) {
        self.stores = stores.codes
        self.parts = parts
    }

    /// The measures of store number `store` in part `part` (in the order the parts were given);
    /// `nil` when the store has no row there.
    public func measures(part: Int, store: Int) -> MeasureSums? { parts[part].sum(store) }
}
