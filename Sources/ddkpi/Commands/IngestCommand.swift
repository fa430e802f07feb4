import ArgumentParser
import Feeds
import Warehouse

/// `ddkpi ingest`: files and folders, or the cron inbox (SPEC section 5).
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Ingest feed files (or every file of folders, in name order), or process a cron inbox.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "The feed of every file (default: detected from the file name, then the headers).")
    var feed: FeedID?

    @Flag(help: "Ingest even files whose SHA-256 already ingested ok.")
    var force = false

    @Flag(help: "Read and report, but write nothing.")
    var dryRun = false

    @Option(help: "Write every reject (file, sheet, row, column, header, value, reason) to this CSV file.")
    var rejects: String?

    @Option(help: "Cron mode: process every file of this folder.")
    var inbox: String?

    @Option(help: "Cron mode: where files that ingested (or were duplicates) are moved.")
    var archive: String?

    @Option(help: "Cron mode: where failed files are moved, each with NAME.reason.txt beside it.")
    var quarantine: String?

    @Option(help: "Log lines on standard error: text (the usual messages) or json (one JSON object per event, no row values).")
    var logFormat: LogFormat = .text

    @Argument(help: "Files or folders to ingest.")
    var paths: [String] = []

    func validate() throws {
        let cron = [inbox, archive, quarantine].compactMap { $0 }.count
        if cron > 0 {
            guard cron == 3 else { throw ValidationError("--inbox, --archive and --quarantine go together") }
            guard paths.isEmpty else { throw ValidationError("give either PATH... or --inbox, not both") }
            guard !dryRun else { throw ValidationError("--dry-run does not go with --inbox (files would be moved)") }
        } else if paths.isEmpty {
            throw ValidationError("give the files or folders to ingest, or --inbox, --archive and --quarantine")
        }
    }

    func run() throws {
        let configuration = try global.configuration()
        let warehouse = try global.openWarehouseForWriting(configuration)
        let ingestor = FileIngestor(
            warehouse: warehouse, configuration: configuration, explicitFeed: feed,
            options: IngestOptions(force: force, dryRun: dryRun, rejectThreshold: configuration.rejectThreshold))
        var printer = IngestPrinter(log: EventLog(format: logFormat))
        do {
            if let inbox, let archive, let quarantine {
                let lock = try warehouse.ingestLockOrExit()
                defer { lock.release() }
                try Inbox(folder: inbox, archive: archive, quarantine: quarantine).run(
                    ingest: ingestor.ingestShowingProgress, report: { printer.print($0) })
            } else {
                for path in try IngestPaths.files(paths) { printer.print(ingestor.ingestShowingProgress(path)) }
            }
        } catch let missing as MissingIngestPath {
            throw ValidationError(missing.description)
        }
        printer.summary()
        if let rejects { try printer.writeRejects(to: rejects) }
        if printer.anyFailed { throw ExitCode(ExitStatus.inputFailed) }
    }
}

extension FeedID: ExpressibleByArgument {}
