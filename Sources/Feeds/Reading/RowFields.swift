import SheetStream

/// Where a file's rows come from: its header, file and sheet names (shared by every row's
/// `RowFields`, so that making one per row costs one reference).
final class RowSource {
    let header: HeaderMap
    let file: String
    let sheet: String

    init(header: HeaderMap, file: String, sheet: String) {
        self.header = header
        self.file = file
        self.sheet = sheet
    }
}

/// Typed access to one data row's fields; the first field that fails becomes the row's reject.
///
/// Its accessors are inlined where they are used, so that each call site's normaliser, a known
/// function, is called directly (or inlined) instead of through a closure and a `Result` built
/// and taken apart in a generic function, a twentieth of the writing thread's instructions
/// (docs/decisions.md#measured-reasons-behind-the-code).
///
/// The row is lent, not copied (`init(lending:source:)`): a `Row` held in the struct cost a
/// retain and a release of its cells per row, on the writing thread, of storage the reading
/// thread had just written.
struct RowFields {
    private let rowAddress: UnsafePointer<Row>
    let source: RowSource
    private(set) var reject: Reject?

    /// Fields of the row at `row`, which must outlive them: they are made and dropped inside
    /// `withUnsafePointer(to:)` of a row the caller holds.
    init(lending row: UnsafePointer<Row>, source: RowSource) {
        rowAddress = row
        self.source = source
    }

    private var row: Row { unsafeAddress { rowAddress } }

    /// The row's number in its sheet (or its record number in a CSV file).
    var rowNumber: Int { row.number }

    private var header: HeaderMap { source.header }

    func has(_ field: CanonicalField) -> Bool { header[field] != nil }

    /// Whether the field's column exists and the cell holds a value.
    func isPresent(_ field: CanonicalField) -> Bool {
        header[field].map { !row[$0].isEmpty && TextNormalizer.text(of: row[$0]) != nil } ?? false
    }

    /// A required field: its failure rejects the row.
    @inline(__always) mutating func required<Value>(
        _ field: CanonicalField, _ normalize: (Cell) -> Result<Value, NormalizationFailure>
    )
        -> Value?
    {
        guard let column = header[field] else { return nil }
        switch normalizeBounded(row[column], normalize) {
        case .success(let value): return value
        case .failure(let failure):
            fail(column: column, failure.reason)
            return nil
        }
    }

    /// A field a file may lack: without its column it is `nil` (unknown); with one, the cell
    /// must normalise, so an empty cell is a reject as for a required field.
    @inline(__always) mutating func requiredWhenPresent<Value>(
        _ field: CanonicalField, _ normalize: (Cell) -> Result<Value, NormalizationFailure>
    )
        -> Value??
    {
        guard header[field] != nil else { return .some(nil) }
        return required(field, normalize).map { .some($0) }
    }

    /// An optional field: empty is `nil`, anything else must normalise.
    @inline(__always) mutating func optional<Value>(
        _ field: CanonicalField, _ normalize: (Cell) -> Result<Value, NormalizationFailure>
    )
        -> Value??
    {
        guard let column = header[field] else { return .some(nil) }
        switch normalizeBounded(row[column], normalize) {
        case .success(let value): return .some(value)
        case .failure(.missing): return .some(nil)
        case .failure(let failure):
            fail(column: column, failure.reason)
            return nil
        }
    }

    /// The longest text a field may hold, in UTF-8 bytes: longer text is a reject, never stored.
    static let maxTextBytes = 4096
    /// How much of a cell a reject keeps (a reject names the value, it does not archive it).
    static let maxRejectValueCharacters = 200

    @inline(__always) private func normalizeBounded<Value>(
        _ cell: Cell, _ normalize: (Cell) -> Result<Value, NormalizationFailure>
    )
        -> Result<Value, NormalizationFailure>
    {
        if case .string(let text) = cell, text.utf8.count > Self.maxTextBytes {
            return .failure(.invalid("is \(text.utf8.count) bytes long; a field holds at most \(Self.maxTextBytes)"))
        }
        return normalize(cell)
    }

    /// A cell's text as a reject shows it, cut after `maxRejectValueCharacters` with `…`.
    private static func rejectValue(_ cell: Cell) -> String {
        let text = CellText.text(cell)
        guard text.utf8.count > maxRejectValueCharacters else { return text }
        return String(text.prefix(maxRejectValueCharacters)) + "…"
    }

    /// Records a whole-row reject.
    mutating func failRow(_ reason: String) {
        guard reject == nil else { return }
        reject = Reject(
            file: source.file, sheet: source.sheet, row: row.number, column: nil, header: nil,
            value: row.cells.map(Self.rejectValue).joined(separator: ","), reason: reason)
    }

    private mutating func fail(column: Int, _ reason: String) {
        guard reject == nil else { return }
        reject = Reject(
            file: source.file, sheet: source.sheet, row: row.number, column: ColumnName.letters(for: column),
            header: header.headers[column], value: Self.rejectValue(row[column]), reason: reason)
    }
}
