/// One row of cells, numbered as the source numbers it.
///
/// Readers reuse one `Row` buffer for the whole sheet; a consumer that keeps a row beyond its
/// callback keeps a copy (copy-on-write), which is safe but allocates.
///
/// A row holds either finished cells (an XLSX row, or one made with `init(number:cells:)`) or
/// text fields (a CSV record). A text field stays UTF-8 bytes until it is asked for
/// (`self[column]`, `cells`, each call making a new `String`: nothing is cached), so reading a
/// file does not pay for text nobody looks at, and `withUTF8(at:_:)` and `isEmpty(at:)` read a
/// field without making a `String` at all.
public struct Row: Sendable {
    /// 1-based sheet row number (XLSX) or 1-based record number (CSV).
    public internal(set) var number: Int
    /// The cells of a row that holds finished cells; empty in a row of text fields.
    @usableFromInline var values: [Cell]
    /// The text fields of a CSV record; `nil` in a row of finished cells, which so allocates none.
    @usableFromInline var fields: TextFields?

    /// Creates a row; mostly for tests and writers.
    public init(number: Int, cells: [Cell]) {
        self.number = number
        values = cells
    }

    /// How many cells the row has, empty ones included (for CSV: how many fields the record has).
    @inlinable public var width: Int { values.count + (fields?.count ?? 0) }

    /// The row's cells from column A (index 0), with `.empty` in gaps. Builds the whole array,
    /// text included: read one cell with `self[column]` where that is all a caller needs.
    public var cells: [Cell] { fields.map { fields in (0..<fields.count).map(fields.cell(at:)) } ?? values }

    /// Takes `other`'s number and finished cells, leaving it this row's cell storage (with
    /// whatever cells it held, for `reset` to empty): an XLSX row handed from the reader to a
    /// batch without copying or allocating.
    mutating func exchangeCells(with other: inout Row) {
        number = other.number
        fields = nil
        swap(&values, &other.values)
    }

    /// Makes this row a copy of `other` with its text fields made into `String` cells, sharing
    /// no storage with it (so the reader reuses `other`'s for its next row without allocating),
    /// in this row's own cell storage where it is not shared either.
    mutating func refill(from other: Row) {
        number = other.number
        fields = nil
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: (0..<other.width).lazy.map { other[$0] })
    }

    /// The cell at a 0-based column index, `.empty` past the row's end.
    @inlinable @inline(__always) public subscript(column: Int) -> Cell {
        guard column >= 0 else { return .empty }
        if let fields, column < fields.count { return fields.cell(at: column) }
        return column < values.count ? values[column] : .empty
    }

    /// Whether the cell at a 0-based column holds no value (`.empty`); true past the row's end.
    /// Cheaper than `self[column].isEmpty` on a CSV row: it makes no `String`.
    @inlinable @inline(__always) public func isEmpty(at column: Int) -> Bool {
        guard column >= 0 else { return true }
        if let fields, column < fields.count { return fields.isEmpty(at: column) }
        return column < values.count ? values[column].isEmpty : true
    }

    /// Calls `body` with the UTF-8 bytes of a CSV field at a 0-based column, valid only inside
    /// `body`; `nil` for an empty field, for a finished cell (any XLSX cell) and past the row's end.
    @inlinable public func withUTF8<Result>(at column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result)
        rethrows -> Result?
    {
        guard let fields, column >= 0 && column < fields.count else { return nil }
        let utf8 = fields.utf8(at: column)
        return utf8.isEmpty ? nil : try body(utf8)
    }

    /// Whether every cell in the row is empty. Checked from the first cell, which a data row
    /// fills, so for nearly every row it stops at once.
    @inlinable public var isBlank: Bool {
        for column in 0..<width where !isEmpty(at: column) { return false }
        return true
    }

    /// The number of cells up to and including the last one that holds a value.
    public var usedWidth: Int {
        var width = self.width
        while width > 0, isEmpty(at: width - 1) { width -= 1 }
        return width
    }

    /// How many finished cells the row's storage holds without growing (the XLSX reader's memory
    /// figure; a CSV row holds none).
    var capacity: Int { values.capacity }

    /// Empties the row for the next one. Storage is kept, unless a consumer kept a copy of the
    /// row, whose text then stays its own.
    mutating func reset(number: Int) {
        self.number = number
        // One cell at a time: `removeAll(keepingCapacity:)` destroys the cells through the
        // generic array code, about three times the cost for a sheet's eight cells. (Storage a
        // consumer kept a copy of is copied by the first `removeLast` instead of replaced: a few
        // hundred instructions more for a row that already cost its keeper an allocation.)
        while !values.isEmpty { values.removeLast() }
        if isKnownUniquelyReferenced(&fields) {
            fields?.removeAll()
        } else {
            fields = nil
        }
    }

    /// Stores a cell at a 0-based column, padding any gap with `.empty`.
    mutating func set(_ cell: consuming Cell, at column: Int) {
        if column == values.count {
            values.append(cell)
        } else if column > values.count {
            values.append(contentsOf: repeatElement(.empty, count: column - values.count))
            values.append(cell)
        } else {
            values[column] = cell
        }
    }

    /// Appends a CSV field: `utf8` must be valid UTF-8; empty bytes make an empty cell.
    mutating func appendField(_ utf8: UnsafeBufferPointer<UInt8>) {
        textFields().appendField(utf8)
    }

    /// Whether the row holds text fields (none before its first field, or once `reset` gave up
    /// storage a consumer's copy shares).
    var hasTextFields: Bool { fields != nil }

    /// The row's text fields, made on the first one; the reader appends to them directly, which
    /// is safe because `reset` gave up any storage a consumer's copy shares.
    mutating func textFields() -> TextFields {
        assert(fields == nil || isKnownUniquelyReferenced(&fields), "a row's fields are shared while it is written")
        if let fields { return fields }
        let made = TextFields()
        fields = made
        return made
    }
}

/// The text fields of a CSV row: their bytes, one after another, and where each field lies in
/// them (an empty range for an empty field). Only the reader that owns the row appends to it,
/// and only while the row is not shared (`Row.reset` makes sure of that), so a copy a consumer
/// keeps never changes.
@usableFromInline final class TextFields: @unchecked Sendable {
    @exclusivity(unchecked) private var bytes = ByteBuffer(capacity: 128)
    @exclusivity(unchecked) @usableFromInline private(set) var ranges: UnsafeMutablePointer<Range<Int>>
    @exclusivity(unchecked) private var capacity = 16
    /// How many fields there are.
    @exclusivity(unchecked) @usableFromInline private(set) var count = 0

    @usableFromInline init() { ranges = .allocate(capacity: capacity) }

    deinit {
        bytes.deallocate()
        ranges.deallocate()
    }

    /// Appends a field whose bytes lie (or will lie, once `appendBytes` adds them) at `range`
    /// of the bytes.
    func append(_ range: Range<Int>) {
        if count == capacity { grow() }
        (ranges + count).initialize(to: range)
        count += 1
    }

    /// Appends bytes that fields appended with `append(_:)` index.
    func appendBytes(_ utf8: UnsafeBufferPointer<UInt8>) { bytes.append(utf8) }

    /// Appends a field holding `utf8`.
    func appendField(_ utf8: UnsafeBufferPointer<UInt8>) {
        let start = bytes.count
        bytes.append(utf8)
        append(start..<bytes.count)
    }

    /// Empties the fields and their bytes, keeping the storage.
    func removeAll() {
        bytes.removeAll()
        count = 0
    }

    /// How many bytes the fields' storage holds.
    var byteCount: Int { bytes.count }

    /// Whether field `index` (below `count`) is empty.
    @inlinable func isEmpty(at index: Int) -> Bool { ranges[index].isEmpty }

    /// The bytes of field `index` (below `count`; none for an empty field), valid while the row
    /// lives and is not reset.
    @usableFromInline func utf8(at index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.base + ranges[index].lowerBound, count: ranges[index].count)
    }

    /// Field `index` (below `count`) as a cell.
    @usableFromInline func cell(at index: Int) -> Cell {
        ranges[index].isEmpty ? .empty : .string(String(decoding: utf8(at: index), as: UTF8.self))
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Range<Int>>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: ranges, count: count)
        ranges.deallocate()
        ranges = larger
        capacity *= 2
    }
}
