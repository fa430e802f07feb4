import Checks
import Foundation
import Warehouse

/// The cron inbox (SPEC section 5, `ddkpi ingest --inbox DIR --archive DIR --quarantine DIR`):
/// which of its files a run takes and in what order, and where each goes after its ingest.
///
/// Each rule has one place: `candidateFiles()` lists what a run takes, `destination(for:)`
/// decides where an outcome sends its file, `file(_:to:)` moves it there, and
/// `run(ingest:report:)` applies them to every file in turn. The caller holds the ingest lock
/// (`Warehouse.tryIngestLock()`), so that two runs never overlap.
public struct Inbox: Sendable {
    /// Where files wait to be ingested.
    public let folder: URL
    /// Where files that ingested, or were duplicates of files that did, are moved.
    public let archive: URL
    /// Where failed and held files are moved, each with `NAME.reason.txt` beside it (and a held
    /// file's alarms in `NAME.alarms.json`).
    public let quarantine: URL

    /// Where a file goes after its ingest.
    public enum Destination: Equatable, Sendable {
        /// The archive: the file ingested (`ok`) or was a `duplicate`.
        case archive
        /// Quarantine, with `reason` written to `NAME.reason.txt` beside the file, and a held
        /// file's alarms (SPEC section 18's JSON) to `NAME.alarms.json`.
        case quarantine(reason: String, alarms: String? = nil)
        /// Nowhere: the file failed for a reason outside itself and waits for the next run.
        case stay
    }

    /// The inbox at `folder`; creates the archive and quarantine folders when they are missing,
    /// but not their parents: a mistyped path is refused rather than made.
    public init(folder: String, archive: String, quarantine: String) throws {
        self.folder = URL(fileURLWithPath: folder)
        self.archive = URL(fileURLWithPath: archive)
        self.quarantine = URL(fileURLWithPath: quarantine)
        for (option, target) in [("--archive", self.archive), ("--quarantine", self.quarantine)] {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), isFolder.boolValue {
                continue
            }
            let parent = target.deletingLastPathComponent()
            guard FileManager.default.fileExists(atPath: parent.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw InboxFolderMissing(
                    option: option, path: target.path, reason: "its parent folder \(parent.path) does not exist")
            }
            do {
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            } catch {
                throw InboxFolderMissing(option: option, path: target.path, reason: "it cannot be created")
            }
        }
    }

    /// The files a run takes: the inbox's visible regular files in name order (no hidden files,
    /// no subfolders, no `.reason.txt` files; FIFOs, devices, sockets and links to them go to
    /// `skipped`, never opened). Throws `MissingIngestPath` when the inbox is missing.
    public func candidateFiles(skipped: (SkippedPath) -> Void = { _ in }) throws -> [String] {
        try IngestPaths.files([folder.path], skipped: skipped)
    }

    /// Where `outcome` sends its file: a failure outside the file nowhere (it stays), another
    /// failure to quarantine (with its error and its first 50 rejects as the reason), a file
    /// held for alarms to quarantine with its alarms, anything else to the archive.
    public static func destination(for outcome: IngestOutcome) -> Destination {
        if outcome.status == .held {
            let asOf = outcome.alarms.map(\.days.end).max()?.iso8601 ?? ""
            return .quarantine(
                reason: (outcome.error ?? "held") + "\n", alarms: AlarmJSON.document(asOf: asOf, alarms: outcome.alarms)
            )
        }
        guard outcome.status == .failed else { return .archive }
        guard outcome.outsideFailure == nil else { return .stay }
        let rejects = outcome.rejects.prefix(50).map { "reject: \($0.description)" }
        return .quarantine(reason: (outcome.error ?? "failed") + "\n" + rejects.joined(separator: "\n"))
    }

    /// Moves the file at `path` to `destination` under its own name, or `NAME.2`, `NAME.3`… when
    /// that name is taken, with a quarantined file's reason (and alarms) beside it; returns where
    /// it went. The reason is written before the file moves: a process killed between the two
    /// leaves the file in the inbox, and the next run quarantines it under the same free name,
    /// writing its reason again, where the other order could leave a quarantined file without one.
    @discardableResult
    public func file(_ path: String, to destination: Destination) throws -> URL {
        let (folder, reason, alarms): (URL, String?, String?)
        switch destination {
        case .archive: (folder, reason, alarms) = (archive, nil, nil)
        case .quarantine(let why, let found): (folder, reason, alarms) = (quarantine, why, found)
        case .stay: return URL(fileURLWithPath: path)
        }
        let target = Self.freeName(for: URL(fileURLWithPath: path).lastPathComponent, in: folder)
        if let reason {
            try reason.write(to: URL(fileURLWithPath: target.path + ".reason.txt"), atomically: true, encoding: .utf8)
        }
        if let alarms {
            try alarms.write(to: URL(fileURLWithPath: target.path + ".alarms.json"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.moveItem(at: URL(fileURLWithPath: path), to: target)
        return target
    }

    /// Ingests every candidate file in order with `ingest` (a `FileIngestor`'s, as a rule), tells
    /// `report` each outcome, then moves the file where the outcome sends it. Stops at the first
    /// failure outside a file, which it returns (that file and the rest stay in the inbox).
    @discardableResult
    public func run(
        ingest: (String) -> IngestOutcome, report: (IngestOutcome) -> Void, skipped: (SkippedPath) -> Void = { _ in }
    ) throws -> OutsideFailure? {
        var dangling: [SkippedPath] = []
        let files = try candidateFiles { passed in
            skipped(passed)
            if passed.kind == .missing { dangling.append(passed) }
        }
        // A link to nothing would be warned about every night: it is said once, then quarantined.
        for link in dangling {
            try file(link.path, to: .quarantine(reason: link.description + "\n"))
        }
        for path in files {
            let outcome = ingest(path)
            report(outcome)
            try file(path, to: Self.destination(for: outcome))
            if let outside = outcome.outsideFailure { return outside }
        }
        return nil
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
}

/// An archive or quarantine folder that is not there and cannot be made.
public struct InboxFolderMissing: Error, CustomStringConvertible, Sendable {
    public let option: String
    public let path: String
    public let reason: String

    public var description: String { "\(option) \(path): \(reason)" }
}
