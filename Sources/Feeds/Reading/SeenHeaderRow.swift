import SheetStream

/// The row a header search shows in its error when it finds no header row: the first one of
/// two or more columns (SPEC section 15: a person is shown its cells, a log only how many
/// columns it had, since a file without a header row would put a customer's name there).
struct SeenHeaderRow {
    private var cells: [String] = []
    private var columns = 0

    /// Keeps `row` while no row with text has been kept.
    mutating func note(_ row: Row) {
        guard cells.isEmpty, row.usedWidth > 1 else { return }
        cells = row.cells.compactMap(TextNormalizer.text(of:))
        columns = row.usedWidth
    }

    /// `headers seen: A, B, C` when `quotingCells`, else `saw a row of 3 columns`.
    func described(quotingCells: Bool) -> String {
        if quotingCells { return "headers seen: \(cells.isEmpty ? "(none)" : cells.joined(separator: ", "))" }
        return columns == 0 ? "saw no row of two or more columns" : "saw a row of \(columns) columns"
    }
}
