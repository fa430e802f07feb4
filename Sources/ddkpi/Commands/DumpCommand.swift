import ArgumentParser
import OutputText
import SheetDump
import SheetStream

/// `ddkpi dump FILE [--sheet NAME] [--format csv|json]`: rows as the reader sees them.
struct DumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump", abstract: "Write a sheet's rows as the reader sees them: CSV (numbers in shortest form, dates as ISO 8601, booleans TRUE/FALSE, errors as written) or JSON.")

    @Argument(help: "An XLSX/XLSM workbook or a CSV file.")
    var file: String

    @Option(help: "The sheet to dump (default: the first).")
    var sheet: String?

    @Option(help: "Output format: csv or json.")
    var format: RowWriter.Format = .csv

    @Option(help: "Cut text cells after this many characters (default: no limit); the cut shows no marker.")
    var maxCellChars: Int?

    func validate() throws {
        if let maxCellChars, maxCellChars < 1 { throw ValidationError("--max-cell-chars \(maxCellChars): expected at least 1") }
    }

    func run() throws {
        let spreadsheet = try openSpreadsheet(file)
        guard let selected = spreadsheet.sheet(named: sheet) else {
            let names = spreadsheet.sheets.map(\.name).joined(separator: ", ")
            throw ValidationError("\(file) has no sheet named \"\(sheet ?? "")\"; its sheets: \(names)")
        }
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
}
