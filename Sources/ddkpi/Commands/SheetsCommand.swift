import ArgumentParser
import OutputText
import SheetStream

/// `ddkpi sheets FILE`: lists a workbook's sheets with index and state.
struct SheetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sheets", abstract: "List a workbook's sheets: index, name and state.")

    @Argument(help: "An XLSX/XLSM workbook or a CSV file.")
    var file: String

    func run() throws {
        let spreadsheet = try openSpreadsheet(file)
        let output = TextOutput()
        for sheet in spreadsheet.sheets {
            output.write("\(sheet.index)\t\(sheet.name)\t\(sheet.state.rawValue)\n")
        }
        output.flush()
    }
}
