import SheetStream

/// Where a feed's fields sit in a sheet: the header row found and each field's column.
public struct HeaderMap: Sendable {
    /// 1-based row of the header.
    public var row: Int
    /// The column of each field found.
    public private(set) var columns: [CanonicalField: Int]
    /// `columns` as an array indexed by the field's raw value (-1: absent), for the per-row path.
    private let columnByField: [Int]
    /// The columns of the fields found, in field order but the store's (or a store file's code)
    /// last: what a repeated header is looked for in.
    private let mappedColumns: [Int]
    /// Header text per column, for reject messages.
    public var headers: [Int: String]
    /// Whether every name of a field has a letter (`FeedDefinition.everyAliasHasALetter`), so
    /// that a cell without one is told at once to be no repeated header (`isRepeat`).
    private let namesHaveLetters: Bool
    /// Cells in the header row (the expected field count of CSV records).
    public var width: Int
    /// The feed whose header this is: what names its fields, for `isRepeat`. Kept here, the
    /// per-row check borrows it; passed in per row, it was copied (three references) for
    /// every row.
    private let definition: FeedDefinition

    /// The header row of `definition` in `row`, if the row satisfies one of its layouts.
    static func match(_ row: Row, definition: FeedDefinition) -> HeaderMap? {
        var columns: [CanonicalField: Int] = [:]
        var headers: [Int: String] = [:]
        for (index, cell) in row.cells.enumerated() {
            guard let text = TextNormalizer.text(of: cell) else { continue }
            headers[index] = text
            if let field = definition.field(forHeader: text), columns[field] == nil { columns[field] = index }
        }
        let satisfied = definition.layouts.contains { layout in
            layout.allSatisfy { requirement in requirement.anyOf.contains { columns[$0] != nil } }
        }
        guard satisfied else { return nil }
        var columnByField = Array(repeating: -1, count: CanonicalField.allCases.count)
        for (field, column) in columns { columnByField[field.rawValue] = column }
        // A data row fails `isRepeat` at its first cell that is not text: the store's column,
        // text in every row, is looked at last.
        let storeLast = CanonicalField.allCases.filter { $0 != .store && $0 != .code } + [.store, .code]
        return HeaderMap(
            row: row.number, columns: columns, columnByField: columnByField,
            mappedColumns: storeLast.compactMap { columns[$0] }, headers: headers,
            namesHaveLetters: definition.everyAliasHasALetter, width: row.width, definition: definition)
    }

    /// The column of a field, if the header has it.
    @inline(__always) public subscript(field: CanonicalField) -> Int? {
        let column = columnByField[field.rawValue]
        return column >= 0 ? column : nil
    }

    /// Whether `row` repeats this header (exports repeat it at page breaks): every mapped
    /// column holds text naming the same field. Inlined where it is called, once per row: a data
    /// row fails the first, cheap check at its first cell that is not text.
    @inline(__always) func isRepeat(of row: Row) -> Bool { mayRepeat(row) && namesItsFields(row) }

    /// Whether every mapped column of `row` holds text that could name a field.
    @inline(__always) private func mayRepeat(_ row: Row) -> Bool {
        guard !columns.isEmpty else { return false }
        for column in mappedColumns {
            // When every alias has a letter (or a '#'), text without one (a number, a date,
            // money) cannot name a field, and is told apart without normalising it.
            guard case .string(let text) = row[column],
                !namesHaveLetters || text.withUTF8Bytes(FeedDefinition.hasALetter)
            else { return false }
        }
        return true
    }

    /// Whether every mapped column of `row` names its field, for the rare row that may repeat
    /// the header.
    private func namesItsFields(_ row: Row) -> Bool {
        for (field, column) in columns {
            guard case .string(let raw) = row[column], let text = TextNormalizer.clean(raw),
                text == headers[column] || definition.field(forHeader: text) == field
            else { return false }
        }
        return true
    }
}

/// Recognises total and subtotal rows (`Total`, `Grand Total`, `Subtotal`, `Company Total`,
/// `Region Total:`), which feeds skip.
enum TotalRow {
    /// Whether the row's store cell or its first non-empty cell is a total label.
    static func isTotal(_ row: Row, storeColumn: Int?) -> Bool {
        if let storeColumn, isTotalLabel(row[storeColumn]) { return true }
        var first = 0
        while first < row.width, row.isEmpty(at: first) { first += 1 }
        guard first < row.width, first != storeColumn else { return false }
        return isTotalLabel(row[first])
    }

    private static func isTotalLabel(_ cell: Cell) -> Bool {
        guard case .string(let raw) = cell, TextNormalizer.mayHoldOnceCleaned(raw, "total"),
            let text = TextNormalizer.clean(raw)
        else { return false }
        var key = text.lowercased()
        while key.hasSuffix(":") { key.removeLast() }
        let words = key.split(separator: " ")
        guard let first = words.first, let last = words.last else { return false }
        return first == "total" || first == "totals" || last == "total" || last == "totals" || first == "subtotal"
            || first == "sub-total"
    }
}
