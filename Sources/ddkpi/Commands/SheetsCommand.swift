import ArgumentParser
import OutputText
import SheetStream

/// `ddkpi sheets FILE`: lists a workbook's sheets with index and state (and, for a chart, dialog
/// or macro sheet, its kind).
struct SheetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheets",
        abstract: "List a workbook's sheets: index, name and state (and the kind of a chart sheet).")

    @Argument(help: "An XLSX/XLSM workbook or a CSV file.")
    var file: String

    func run() throws {
        let spreadsheet = try openSpreadsheet(file)
        let output = TextOutput()
        for sheet in spreadsheet.sheets {
            // Worksheets keep three columns; other kinds say what they are in a fourth.
            let kind = sheet.isWorksheet ? "" : "\t\(sheet.kindName)"
            output.write("\(sheet.index)\t\(sheet.name)\t\(sheet.state.rawValue)\(kind)\n")
        }
        output.flush()
    }
}
