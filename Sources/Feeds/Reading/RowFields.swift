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
struct RowFields {
    let row: Row
    let source: RowSource
    private(set) var reject: Reject?

    init(row: Row, source: RowSource) {
        self.row = row
        self.source = source
    }

    private var header: HeaderMap { source.header }

    func has(_ field: CanonicalField) -> Bool { header[field] != nil }

    /// Whether the field's column exists and the cell holds a value.
    func isPresent(_ field: CanonicalField) -> Bool {
        header[field].map { !row[$0].isEmpty && TextNormalizer.text(of: row[$0]) != nil } ?? false
    }

    /// A required field: its failure rejects the row.
    mutating func required<Value>(_ field: CanonicalField, _ normalize: (Cell) -> Result<Value, NormalizationFailure>)
        -> Value?
    {
        guard let column = header[field] else { return nil }
        switch normalize(row[column]) {
        case .success(let value): return value
        case .failure(let failure):
            fail(column: column, failure.reason)
            return nil
        }
    }

    /// An optional field: empty is `nil`, anything else must normalise.
    mutating func optional<Value>(_ field: CanonicalField, _ normalize: (Cell) -> Result<Value, NormalizationFailure>)
        -> Value??
    {
        guard let column = header[field] else { return .some(nil) }
        switch normalize(row[column]) {
        case .success(let value): return .some(value)
        case .failure(.missing): return .some(nil)
        case .failure(let failure):
            fail(column: column, failure.reason)
            return nil
        }
    }

    /// Records a whole-row reject.
    mutating func failRow(_ reason: String) {
        guard reject == nil else { return }
        reject = Reject(
            file: source.file, sheet: source.sheet, row: row.number, column: nil, header: nil,
            value: row.cells.map(CellText.text).joined(separator: ","), reason: reason)
    }

    private mutating func fail(column: Int, _ reason: String) {
        guard reject == nil else { return }
        reject = Reject(
            file: source.file, sheet: source.sheet, row: row.number, column: ColumnName.letters(for: column),
            header: header.headers[column], value: CellText.text(row[column]), reason: reason)
    }
}
