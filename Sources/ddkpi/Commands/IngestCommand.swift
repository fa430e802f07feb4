import ArgumentParser
import Feeds
import Foundation
import Warehouse

#if canImport(Glibc)
import Glibc
#endif

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

    @Option(help: "Undo this run (see `ddkpi runs`): delete the keys it inserted and restore the values it replaced.")
    var undo: Int64?

    @Flag(help: "With --undo: first undo the later runs that changed the same keys, newest first.")
    var cascade = false

    @Option(help: "Log lines on standard error: text (the usual messages) or json (one JSON object per event, no row values).")
    var logFormat: LogFormat = .text

    @Argument(help: "Files or folders to ingest.")
    var paths: [String] = []

    func validate() throws {
        if undo != nil {
            guard paths.isEmpty, inbox == nil, archive == nil, quarantine == nil, !dryRun, !force, feed == nil else {
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
        let ingestor = FileIngestor(
            warehouse: warehouse, configuration: configuration, explicitFeed: feed,
            options: IngestOptions(force: force, dryRun: dryRun, rejectThreshold: configuration.rejectThreshold))
        var printer = IngestPrinter(log: EventLog(format: logFormat))
        if let inbox, let archive, let quarantine {
            let lock = try warehouse.ingestLockOrExit()
            defer { lock.release() }
            let folders = try Inbox(inbox: inbox, archive: archive, quarantine: quarantine)
            for path in try folders.pendingFiles() {
                let outcome = ingestor.ingestShowingProgress(path)
                printer.print(outcome)
                try folders.file(path, outcome: outcome)
            }
        } else {
            for path in try Inbox.expand(paths) { printer.print(ingestor.ingestShowingProgress(path)) }
        }
        printer.summary()
        if let rejects { try printer.writeRejects(to: rejects) }
        if printer.anyFailed { throw ExitCode(ExitStatus.inputFailed) }
    }
}

extension FeedID: ExpressibleByArgument {}

/// The cron folders: files to process, and where each goes afterwards.
struct Inbox {
    let inbox: URL
    let archive: URL
    let quarantine: URL

    init(inbox: String, archive: String, quarantine: String) throws {
        self.inbox = URL(fileURLWithPath: inbox)
        self.archive = URL(fileURLWithPath: archive)
        self.quarantine = URL(fileURLWithPath: quarantine)
        for folder in [self.archive, self.quarantine] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The inbox's regular files in name order, hidden files left alone.
    func pendingFiles() throws -> [String] { try Inbox.expand([inbox.path]) }

    /// Moves a processed file to the archive (ok, duplicate) or to quarantine with its reason.
    func file(_ path: String, outcome: IngestOutcome) throws {
        let source = URL(fileURLWithPath: path)
        let failed = outcome.status == .failed
        let target = Self.freeName(for: source.lastPathComponent, in: failed ? quarantine : archive)
        try FileManager.default.moveItem(at: source, to: target)
        if failed {
            let reason = (outcome.error ?? "failed") + "\n"
                + outcome.rejects.prefix(50).map { "reject: \($0.description)" }.joined(separator: "\n")
            try reason.write(to: URL(fileURLWithPath: target.path + ".reason.txt"), atomically: true, encoding: .utf8)
        }
    }

    /// `name`, or `name.2`, `name.3`… when the folder already holds one.
    static func freeName(for name: String, in folder: URL) -> URL {
        var candidate = folder.appendingPathComponent(name)
        var counter = 2
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = folder.appendingPathComponent("\(name).\(counter)")
            counter += 1
        }
        return candidate
    }

    /// Files as given, folders as their visible regular files in name order.
    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ValidationError("\(path): no such file or folder")
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            for name in names where !name.hasPrefix(".") && !name.hasSuffix(".reason.txt") {
                let full = (path as NSString).appendingPathComponent(name)
                var childIsFolder: ObjCBool = false
                if FileManager.default.fileExists(atPath: full, isDirectory: &childIsFolder), !childIsFolder.boolValue {
                    files.append(full)
                }
            }
        }
        return files
    }
}

extension IngestCommand {
    /// `--undo RUN [--cascade]` (SPEC section 16), under the ingest lock; a refusal exits 2.
    private func undoRun(_ run: Int64, in warehouse: Warehouse) throws {
        let lock = try warehouse.ingestLockOrExit()
        defer { lock.release() }
        do {
            let outcome = try warehouse.undo(run: run, cascade: cascade)
            let runs = outcome.runs.map(String.init).joined(separator: ", ")
            print("undone   run\(outcome.runs.count == 1 ? "" : "s") \(runs): \(outcome.deleted) inserted row\(outcome.deleted == 1 ? "" : "s") deleted, \(outcome.restored) earlier row\(outcome.restored == 1 ? "" : "s") restored")
        } catch let refused as UndoRefused {
            Diagnostics.error(refused.message)
            throw ExitCode(ExitStatus.usage)
        }
    }
}
