import ArgumentParser
import Feeds
import OutputText
import Reports

/// `ddkpi headers FILE [--feed ID]` (SPEC section 26): the feed a file is read as, the field each
/// column of its header row maps to, and the required fields still missing with the config line
/// that would add each, and whether `[feeds] enabled` has its feed; exit 0 when the file would
/// load, 1 otherwise.
struct HeadersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headers",
        abstract:
            "How a file's header row maps to its feed's fields, and what is missing (exit 1 when it would not load).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "An XLSX/XLSM workbook or a CSV file.")
    var file: String

    @Option(help: "The feed to read it as (default: detected as ingest detects it).")
    var feed: FeedID?

    func run() throws {
        let configuration = try global.configuration()
        let options = configuration.feedOptions
        let firstRows = FirstRows(of: try openSpreadsheet(file), searchRows: options.headerSearchRows)
        let name = FeedFileReader.fileName(file)
        let id: FeedID
        do {
            id = try FeedDetector(options: options, extraNamePatterns: configuration.namePatterns).detect(
                firstRows, explicit: feed)
        } catch let error as FeedError {
            throw InputFailure(underlying: error)
        }
        let reader = FeedFileReader(
            definition: options.definition(id), directory: StoreDirectory(stores: []), options: options)
        let search = try reader.searchHeader(in: firstRows)
        let output = TextOutput()
        let sheet = search.sheet.map { " sheet \($0.name)," } ?? ""
        guard let fit = search.fit else {
            output.write(
                ControlCharacters.escaped(
                    "\(name): feed \(id.rawValue),\(sheet) no row in the first \(options.headerSearchRows) names a field of it"
                )
                    + "\n")
            output.flush()
            throw ExitCode(ExitStatus.inputFailed)
        }
        let found = search.header == nil ? "no header row; row \(fit.row) comes closest" : "header row \(fit.row)"
        output.write(ControlCharacters.escaped("\(name): feed \(id.rawValue),\(sheet) \(found)") + "\n")
        var table = TextTable(alignments: [.left, .left, .left], separator: "  ")
        table.add(["column", "header", "field"])
        for column in fit.columns {
            let field = column.field.map { $0.name + (column.byConfigAlias ? " (config alias)" : "") } ?? "—"
            table.add([column.letters, column.header, field])
        }
        output.write(table.render())
        output.write(
            fit.fits
                ? "would load: every required field has a column\n"
                : ControlCharacters.escaped(fit.explanation(quotingCells: true)) + "\n")
        let notEnabled = options.notEnabledReason(id)
        if let notEnabled { output.write("would not load: \(notEnabled)\n") }
        output.flush()
        if !fit.fits || notEnabled != nil { throw ExitCode(ExitStatus.inputFailed) }
    }
}
