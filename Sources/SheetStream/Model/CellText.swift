/// The text form of cells that `ddkpi dump` writes (SPEC section 8): numbers in shortest
/// round-trip form, dates in ISO 8601, booleans `TRUE`/`FALSE`, errors and strings as written.
public enum CellText {
    /// The text of one cell; `""` for `.empty`.
    public static func text(_ cell: Cell) -> String {
        switch cell {
        case .empty: return ""
        case .number(let value): return number(value)
        case .string(let text): return text
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .date(let value): return value.iso8601
        case .error(let text): return text
        }
    }

    /// Shortest round-trip text of a number: `1234.5`, `3`, `1e+16`, `-0.25`.
    public static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e16 { return String(Int64(value)) }
        return value.description
    }
}
