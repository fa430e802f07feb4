import CivilCalendar

/// Per-file upsert counts.
public struct UpsertCounts: Sendable, Equatable, Codable {
    public var inserted = 0
    public var updated = 0
    public var unchanged = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
    }
}

/// Counts what a session's upserts into one table did: inserted, updated (changed) and
/// unchanged rows. A backend that cannot tell inserts from updates gives the table's row count
/// before the first upsert, and the growth over the run tells.
struct UpsertTally {
    private let rowsBefore: Int64?
    private var changed = 0
    private var unchanged = 0
    private var inserted = 0

    /// A tally; `rowsBefore` when inserts are told by the table's growth.
    init(rowsBefore: Int64?) { self.rowsBefore = rowsBefore }

    /// Records a batch of `rows` rows of which `changed` were inserted or changed (`inserted`
    /// of them inserted, when known).
    mutating func record(rows: Int, changed: Int, inserted: Int = 0) {
        self.changed += changed
        unchanged += rows - changed
        self.inserted += inserted
    }

    /// Whether the table held no rows before the session's first upsert of it.
    var tableWasEmpty: Bool { rowsBefore == 0 }

    /// The table's rows now, known without counting them when it was empty before and every
    /// row upserted had a key of its own (`distinctKeys` of them).
    func rowsNowWithoutCounting(distinctKeys: Int?) -> Int64? {
        tableWasEmpty ? distinctKeys.map(Int64.init) : nil
    }

    /// The counts, given the table's rows now when inserts are told by growth.
    func counts(rowsNow: Int64? = nil) -> UpsertCounts {
        let inserts = rowsBefore.map { Int((rowsNow ?? $0) - $0) } ?? inserted
        return UpsertCounts(inserted: inserts, updated: changed - inserts, unchanged: unchanged)
    }
}

/// An upsert into one table (SPEC section 5): insert, or update the row with the same key when
/// one of the `values` columns differs (`untracked` columns are written, but a change in them
/// alone leaves the row unchanged). Each backend turns it into its own SQL.
struct UpsertStatement {
    let table: String
    let key: [String]
    let values: [String]
    let untracked: [String]
    /// Whether the rows' `store_code` must name a store of the directory (a foreign key).
    let referencesStore: Bool

    init(table: String, key: [String], values: [String], untracked: [String] = [], referencesStore: Bool = false) {
        self.table = table
        self.key = key
        self.values = values
        self.untracked = untracked
        self.referencesStore = referencesStore
    }

    /// Every column, in the order rows give their values.
    var columns: [String] { key + values + untracked }
    var columnCount: Int { key.count + values.count + untracked.count }

    /// `column = excluded.column` for every column the upsert sets.
    var assignments: String { (values + untracked).map { "\($0) = excluded.\($0)" }.joined(separator: ", ") }

    /// Whether the rows record the run that wrote them, so that a later run re-sending a key
    /// unchanged becomes its holder (SPEC section 16).
    var recordsRun: Bool { untracked.contains(HistoryTable.runColumn) }
}

/// The values of the rows waiting for one upsert statement, held without an allocation per
/// value: numbers inline and all text in one byte arena, which stays put while the statement
/// runs, so SQLite reads it in place (`SQLITE_STATIC`) instead of copying it.
struct PendingValues {
    enum Value {
        case null
        case integer(Int64)
        case real(Double)
        case text(offset: Int, count: Int)
    }

    private(set) var values: [Value] = []
    /// The arena every text value points into.
    private(set) var text: [UInt8] = []
    /// The last date added and where its text lies in the arena: the rows of a day's file, or
    /// of one day in a longer one, share it rather than each writing it again.
    private var lastDate: (date: CivilDate, offset: Int)?

    init(capacity: Int) {
        values.reserveCapacity(capacity)
        text.reserveCapacity(capacity * 8)
    }

    var isEmpty: Bool { values.isEmpty }

    mutating func removeAll() {
        values.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        lastDate = nil
    }

    mutating func add(_ value: Int?) { values.append(value.map { .integer(Int64($0)) } ?? .null) }
    mutating func add(_ value: Int64?) { values.append(value.map(Value.integer) ?? .null) }
    mutating func add(_ value: Double?) { values.append(value.map(Value.real) ?? .null) }

    mutating func add(_ value: String?) {
        guard var value else { return values.append(.null) }
        let offset = text.count
        value.withUTF8 { text.append(contentsOf: $0) }
        values.append(.text(offset: offset, count: text.count - offset))
    }

    /// How many values are pending.
    var count: Int { values.count }

    /// Adds an integer as its decimal text (the text `String(value)` gives), its digits written
    /// straight into the arena when its magnitude fits in 64 bits (below 1.8 × 10^19), as the
    /// rollups' weighted sums do: a `String` made first costs more
    /// (docs/decisions.md#measured-reasons-behind-the-code).
    mutating func add(decimalText value: Int128) {
        guard let magnitude = UInt64(exactly: value.magnitude) else { return add(String(value)) }
        let offset = text.count
        // A sign and at most 20 digits, written from the end of a buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 21) { buffer in
            var start = buffer.count
            var rest = magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        values.append(.text(offset: offset, count: text.count - offset))
    }

    /// Adds a date as `YYYY-MM-DD` text, written straight into the arena in one append.
    mutating func add(_ date: CivilDate) {
        if let lastDate, lastDate.date == date { return values.append(.text(offset: lastDate.offset, count: 10)) }
        guard (0...9999).contains(date.year), (1...12).contains(date.month), (1...31).contains(date.day) else {
            return add(date.iso8601)
        }
        let digit = { (number: Int) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10) }
        let (year, month, day) = (date.year, date.month, date.day)
        let bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
            digit(year / 1000), digit(year / 100), digit(year / 10), digit(year), UInt8(ascii: "-"),
            digit(month / 10), digit(month), UInt8(ascii: "-"), digit(day / 10), digit(day)
        )
        let offset = text.count
        withUnsafeBytes(of: bytes) { text.append(contentsOf: $0) }
        values.append(.text(offset: offset, count: 10))
        lastDate = (date, offset)
    }
}
