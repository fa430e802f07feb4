/// One cell as a reader sees it, the same for XLSX and CSV sources.
///
/// XLSX cells keep their stored type (numbers, booleans, errors, dates recognised through the
/// cell's number format); CSV cells are always `.string` or `.empty`.
public enum Cell: Equatable, Sendable {
    /// No value: a missing cell, a gap in a row, or an empty CSV field.
    case empty
    /// A numeric cell that has no date or time number format.
    case number(Double)
    /// Text from a shared string, an inline string, a formula's string result or a CSV field.
    case string(String)
    /// A boolean cell (`t="b"`).
    case bool(Bool)
    /// A numeric cell with a date/time number format, or an ISO 8601 cell (`t="d"`).
    case date(CellDateTime)
    /// An error value as written in the cell, such as `#DIV/0!`.
    case error(String)

    /// Whether the cell holds no value at all (an empty string counts as a value).
    @inlinable public var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }
}

/// One row of cells, numbered as the source numbers it.
///
/// Readers reuse one `Row` buffer for the whole sheet; a consumer that keeps a row beyond its
/// callback keeps a copy (copy-on-write), which is safe but allocates.
public struct Row: Sendable {
    /// 1-based sheet row number (XLSX) or 1-based record number (CSV).
    public internal(set) var number: Int
    /// The row's cells from column A (index 0), with `.empty` in gaps.
    public internal(set) var cells: [Cell]

    /// Creates a row; mostly for tests and writers.
    public init(number: Int, cells: [Cell]) {
        self.number = number
        self.cells = cells
    }

    /// The cell at a 0-based column index, `.empty` past the row's end.
    @inlinable public subscript(column: Int) -> Cell {
        column >= 0 && column < cells.count ? cells[column] : .empty
    }

    /// Whether every cell in the row is empty.
    public var isBlank: Bool { cells.allSatisfy(\.isEmpty) }

    /// The number of cells up to and including the last one that holds a value.
    public var usedWidth: Int {
        var width = cells.count
        while width > 0, cells[width - 1].isEmpty { width -= 1 }
        return width
    }

    mutating func reset(number: Int) {
        self.number = number
        cells.removeAll(keepingCapacity: true)
    }

    /// Stores a cell at a 0-based column, padding any gap with `.empty`.
    mutating func set(_ cell: Cell, at column: Int) {
        if column == cells.count {
            cells.append(cell)
        } else if column > cells.count {
            cells.append(contentsOf: repeatElement(.empty, count: column - cells.count))
            cells.append(cell)
        } else {
            cells[column] = cell
        }
    }

    mutating func append(_ cell: Cell) { cells.append(cell) }
}
