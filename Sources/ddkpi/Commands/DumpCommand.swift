import ArgumentParser
import OutputText
import SheetDump
import SheetStream

/// `ddkpi dump FILE [--sheet NAME] [--format csv|json]`: rows as the reader sees them.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract:
            "Write a sheet's rows as the reader sees them: CSV (numbers in shortest form, dates as ISO 8601, booleans TRUE/FALSE, errors as written) or JSON."
    )

    @Argument(help: "An XLSX/XLSM workbook or a CSV file.")
    var file: String

    @Option(help: "The worksheet to dump (default: the first worksheet).")
    var sheet: String?

    @Option(help: "Output format: csv or json.")
    var format: RowWriter.Format = .csv

    @Option(help: "Cut text cells after this many characters (default: no limit); the cut shows no marker.")
    var maxCellChars: Int?

    func validate() throws {
        if let maxCellChars, maxCellChars < 1 {
            throw ValidationError("--max-cell-chars \(maxCellChars): expected at least 1")
        }
    }

    func run() throws {
        let spreadsheet = try openSpreadsheet(file)
        let selected = try choose(in: spreadsheet)
        var writer = RowWriter(format: format, output: TextOutput(), maxCellCharacters: maxCellChars)
        writer.begin(file: file, sheet: selected.name)
        do {
            try spreadsheet.readRows(of: selected) { writer.write($0) }
        } catch {
            writer.end()
            throw InputFailure(underlying: error)
        }
        writer.end()
        spreadsheet.warnings.forEach(Diagnostics.warning)
    }

    /// The sheet `--sheet` names, which must be a worksheet, or else the first worksheet; a
    /// workbook without one is an input failure of the file.
    private func choose(in spreadsheet: SpreadsheetFile) throws -> SheetInfo {
        let worksheets = spreadsheet.sheets.filter(\.isWorksheet).map(\.name).joined(separator: ", ")
        guard let sheet else {
            if let first = spreadsheet.sheet(named: nil) { return first }
            let others = spreadsheet.sheets.map { "\($0.name) (\($0.kindName))" }.joined(separator: ", ")
            throw InputFailure(
                underlying: XLSXError(
                    file: file,
                    message: "the workbook has no worksheets" + (others.isEmpty ? "" : "; its sheets: \(others)")))
        }
        guard let named = spreadsheet.sheet(named: sheet) else {
            let names = spreadsheet.sheets.map(\.name).joined(separator: ", ")
            throw ValidationError("\(file) has no sheet named \"\(sheet)\"; its sheets: \(names)")
        }
        guard named.isWorksheet else {
            throw ValidationError(
                "\(file): sheet \"\(named.name)\" is a \(named.kindName), not a worksheet: it has no rows to dump; its worksheets: \(worksheets.isEmpty ? "(none)" : worksheets)"
            )
        }
        return named
    }
}
