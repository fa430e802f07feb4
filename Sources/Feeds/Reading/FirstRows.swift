import SheetStream

/// The rows of a file's header search area (its worksheets' first rows, SPEC section 3), each
/// read from the file once, however often feed detection and the header search look at them.
///
/// A sheet is read when it is first looked at and only as far as that look goes, so that a look
/// reads no row it would not read alone; a later look that goes further reads on from there.
public final class FirstRows {
    let file: SpreadsheetFile
    /// How many rows from the top of a sheet are searched (`FeedOptions.headerSearchRows`).
    let searchRows: Int
    /// What has been read of each sheet's search area, by sheet index.
    private var areas: [Int: Area] = [:]

    /// What has been read of one sheet's search area.
    private struct Area {
        var rows: [Row] = []
        /// Whether the area has been read to its last row (or the sheet's).
        var isComplete = false
        /// The error that stopped reading the sheet, met after `rows`.
        var error: Error?
    }

    public init(of file: SpreadsheetFile, searchRows: Int) {
        self.file = file
        self.searchRows = searchRows
    }

    /// The sheets that hold rows (a CSV file's one sheet included), in the file's order.
    var worksheets: [SheetInfo] { file.sheets.filter(\.isWorksheet) }

    /// Shows `inspect` the rows of `sheet`'s search area in order until it returns `true`, and
    /// returns whether it did; throws the error that stopped the sheet's reading, if `inspect`
    /// gets that far.
    func contains(in sheet: SheetInfo, where inspect: (Row) -> Bool) throws -> Bool {
        let area = areas[sheet.index, default: Area()]
        if area.rows.contains(where: inspect) { return true }
        if let error = area.error { throw error }
        if area.isComplete { return false }
        return try readOn(sheet, after: area.rows.count, inspect)
    }

    /// Reads `sheet` past the `shown` rows already kept, keeping and showing each further row of
    /// the search area to `inspect` until it returns `true` or the area ends.
    private func readOn(_ sheet: SheetInfo, after shown: Int, _ inspect: (Row) -> Bool) throws -> Bool {
        var area = areas[sheet.index, default: Area()]
        defer { areas[sheet.index] = area }
        var found = false
        var passed = 0
        var stopped = false
        do {
            try withoutActuallyEscaping(inspect) { inspect in
                try file.readRowsWhile(of: sheet) { row in
                    passed += 1
                    guard passed > shown else { return true }
                    area.rows.append(row)
                    found = inspect(row)
                    stopped = found || row.number >= self.searchRows
                    return !stopped
                }
            }
        } catch {
            area.error = error
            throw error
        }
        // A read that stopped at the area's last row has read the whole area too.
        area.isComplete = !stopped || (area.rows.last?.number ?? 0) >= searchRows
        return found
    }
}
