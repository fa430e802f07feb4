import ArgumentParser
import Feeds
import Ingest
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

    @Flag(
        help:
            "Load files even when the wrong-data checks find alarms (with [check] on_ingest = \"hold\"); the ledger records it."
    )
    var acceptAlarms = false

    @Option(help: "Write every reject (file, sheet, row, column, header, value, reason) to this CSV file.")
    var rejects: String?

    @Option(help: "Cron mode: process every file of this folder.")
    var inbox: String?

    @Option(help: "Cron mode: where files that ingested (or were duplicates) are moved.")
    var archive: String?

    @Option(
        help: "Cron mode: where failed and held files are moved, with NAME.reason.txt (and NAME.alarms.json) beside.")
    var quarantine: String?

    @Option(help: "Undo this run (see `ddkpi runs`): delete the keys it inserted and restore the values it replaced.")
    var undo: Int64?

    @Flag(help: "With --undo: first undo the later runs that changed the same keys, newest first.")
    var cascade = false

    @Option(
        help:
            "Log lines on standard error: text (the usual messages) or json (one JSON object per event, no row values)."
    )
    var logFormat: LogFormat = .text

    @Argument(help: "Files or folders to ingest.")
    var paths: [String] = []

    func validate() throws {
        if undo != nil {
            guard paths.isEmpty, inbox == nil, archive == nil, quarantine == nil, !dryRun, !force, feed == nil,
                !acceptAlarms
            else {
                throw ValidationError("--undo RUN goes alone (with --cascade at most)")
            }
            return
        }
        guard !cascade else { throw ValidationError("--cascade goes with --undo RUN") }
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
        if let undo { return try undoRun(undo, in: warehouse) }
        var ingestor = FileIngestor(
            warehouse: warehouse, configuration: configuration, explicitFeed: feed,
            options: IngestOptions(
                force: force, dryRun: dryRun, rejectThreshold: configuration.rejectThreshold,
                checks: try configuration.checks(against: warehouse), acceptAlarms: acceptAlarms))
        var printer = IngestPrinter(log: EventLog(format: logFormat))
        // A JSON log never quotes a file's cells, not even the row taken for headers (SPEC section 15).
        ingestor.feedOptions.errorsQuoteCells = !printer.log.isStructured
        // Plain ingests take the lock too: two never interleave (SPEC section 5).
        let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
        defer { lock.release() }
        let stoppedBy: OutsideFailure?
        do {
            if let inbox, let archive, let quarantine {
                stoppedBy = try Inbox(folder: inbox, archive: archive, quarantine: quarantine).run(
                    ingest: ingestor.ingestShowingProgress, report: { printer.print($0) },
                    skipped: { Diagnostics.warning($0.description) })
            } else {
                stoppedBy = try IngestPaths.run(
                    paths, ingest: ingestor.ingestShowingProgress, report: { printer.print($0) },
                    skipped: { Diagnostics.warning($0.description) })
            }
        } catch let missing as MissingIngestPath {
            throw ValidationError(missing.description)
        } catch let notAFile as SkippedPath {
            throw ValidationError(notAFile.description)
        } catch let folder as InboxFolderMissing {
            throw ValidationError(folder.description)
        }
        printer.summary()
        if let rejects { try printer.writeRejects(to: rejects) }
        if let stoppedBy {
            Diagnostics.error(
                "stopped at the first failure outside the files (\(stoppedBy.rawValue)); the files not ingested stay for the next run"
            )
            throw ExitCode(stoppedBy == .server ? ExitStatus.usage : ExitStatus.inputFailed)
        }
        // A held file was not loaded: like a failed one, the run did not take every file.
        if printer.anyFailed || printer.anyHeld { throw ExitCode(ExitStatus.inputFailed) }
    }
}

extension FeedID: ExpressibleByArgument {}

extension IngestCommand {
    /// `--undo RUN [--cascade]` (SPEC section 16), under the ingest lock; a refusal exits 2.
    private func undoRun(_ run: Int64, in warehouse: Warehouse) throws {
        let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
        defer { lock.release() }
        do {
            let outcome = try warehouse.undo(run: run, cascade: cascade)
            let runs = outcome.runs.map(String.init).joined(separator: ", ")
            let undoRuns = outcome.undoRuns.map(String.init).joined(separator: ", ")
            print(
                "undone   run\(outcome.runs.count == 1 ? "" : "s") \(runs): \(outcome.deleted) inserted row\(outcome.deleted == 1 ? "" : "s") deleted, \(outcome.restored) earlier row\(outcome.restored == 1 ? "" : "s") restored (undo run\(outcome.undoRuns.count == 1 ? "" : "s") \(undoRuns))"
            )
        } catch let refused as UndoRefused {
            Diagnostics.error(refused.message)
            throw ExitCode(ExitStatus.usage)
        } catch {
            // A full or failing disk exits 1, as the same failure of an ingest does; the undo's
            // transaction rolled back whole.
            guard OutsideFailure(classifying: error) == .environment else { throw error }
            Diagnostics.error("run \(run) was not undone (nothing changed): \(error)")
            throw ExitCode(ExitStatus.inputFailed)
        }
    }
}
