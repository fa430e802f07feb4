import OutputText
import SheetStream

/// Writes sheet rows as `ddkpi dump` shows them: CSV or JSON.
///
/// CSV has one line per sheet row from row 1 to the last row with a value, gaps as empty lines,
/// each line ending at its last cell with a value; fields are quoted only when they hold a
/// comma, quote, CR or LF (RFC 4180). JSON is one object with the sheet's rows, each row an
/// array of typed values (numbers, strings, booleans, `null` for empty; dates ISO 8601 text,
/// errors as `{"error": "#N/A"}`).
public struct RowWriter {
    /// The output format.
    public enum Format: String, CaseIterable, Sendable { case csv, json }

    private let format: Format
    private let output: TextOutput
    /// Text cells longer than this are cut to it (characters), so that a long shared string
    /// referenced many times cannot blow the output up; `nil`: no limit.
    private let maxCellCharacters: Int?
    private var lastRowNumber = 0
    private var wroteRow = false

    /// A writer of `format` to `output`, cutting text cells after `maxCellCharacters`.
    public init(format: Format, output: TextOutput, maxCellCharacters: Int? = nil) {
        self.format = format
        self.output = output
        self.maxCellCharacters = maxCellCharacters
    }

    /// The cell as written: text cut to `maxCellCharacters`.
    private func limited(_ cell: Cell) -> Cell {
        guard let limit = maxCellCharacters, case .string(let text) = cell, text.utf8.count > limit, text.count > limit
        else {
            return cell
        }
        return .string(String(text.prefix(limit)))
    }

    /// Writes the preamble (JSON only).
    public mutating func begin(file: String, sheet: String) {
        if format == .json {
            output.write("{\"file\":\(JSONText.quoted(file)),\"sheet\":\(JSONText.quoted(sheet)),\"rows\":[")
        }
    }

    /// Writes one row, after empty lines for any skipped rows; rows without values write nothing yet.
    public mutating func write(_ row: Row) {
        let width = row.usedWidth
        guard width > 0 else { return }
        switch format {
        case .csv:
            for _ in 0..<max(0, row.number - lastRowNumber - 1) { output.write("\n") }
            if width == 1, case .string("") = row[0] {
                // A lone empty string is written `""` so that it differs from an empty row.
                output.write("\"\"\n")
                break
            }
            for column in 0..<width {
                if column > 0 { output.write(",") }
                output.write(CSVText.field(CellText.text(limited(row[column]))))
            }
            output.write("\n")
        case .json:
            output.write(wroteRow ? ",\n" : "\n")
            output.write("{\"row\":\(row.number),\"cells\":[")
            for column in 0..<width {
                if column > 0 { output.write(",") }
                output.write(Self.jsonValue(limited(row[column])))
            }
            output.write("]}")
        }
        wroteRow = true
        lastRowNumber = row.number
    }

    /// Writes the closing part (JSON only) and flushes.
    public mutating func end() {
        if format == .json { output.write(wroteRow ? "\n]}\n" : "]}\n") }
        output.flush()
    }

    static func jsonValue(_ cell: Cell) -> String {
        switch cell {
        case .empty: return "null"
        case .number(let value): return value.isFinite ? CellText.number(value) : "null"
        case .bool(let value): return value ? "true" : "false"
        case .string(let text): return JSONText.quoted(text)
        case .date(let value): return JSONText.quoted(value.iso8601)
        case .error(let text): return "{\"error\":\(JSONText.quoted(text))}"
        }
    }
}
