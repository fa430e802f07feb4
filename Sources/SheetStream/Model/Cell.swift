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
