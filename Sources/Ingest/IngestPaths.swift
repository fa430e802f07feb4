import Foundation
import Warehouse

/// The files an ingest takes from the paths it is given (SPEC section 5): a file as given, a
/// folder as its visible regular files in name order. The cron inbox lists its files the same way.
public enum IngestPaths {
    /// Files as given, folders as their visible regular files in name order (no hidden files,
    /// no subfolders, no `.reason.txt` or `.alarms.json` files); throws `MissingIngestPath` for a
    /// path that is not there, and `SkippedPath` for a path named on its own that is not a
    /// regular file. Only regular files are taken (SPEC section 5): a FIFO, device or socket, or
    /// a link to one or to nothing, in a folder goes to `skipped` and is never opened.
    public static func files(_ paths: [String], skipped: (SkippedPath) -> Void = { _ in }) throws -> [String] {
        var files: [String] = []
        func take(_ path: String) {
            let kind = FileKind(path)
            if kind == .regular { files.append(path) } else { skipped(SkippedPath(path: path, kind: kind)) }
        }
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw MissingIngestPath(path: path)
            }
            guard isFolder.boolValue else {
                // A path named on its own must be a regular file: anything else is a mistake.
                let kind = FileKind(path)
                guard kind == .regular else { throw SkippedPath(path: path, kind: kind) }
                files.append(path)
                continue
            }
            let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            for name in names
            where !name.hasPrefix(".") && !name.hasSuffix(".reason.txt") && !name.hasSuffix(".alarms.json") {
                let full = (path as NSString).appendingPathComponent(name)
                if FileKind(full) != .folder { take(full) }
            }
        }
        return files
    }

    /// Plain ingest: ingests the files of `paths` in order, tells `report` each outcome, and
    /// stops at the first failure outside a file, which it returns.
    public static func run(
        _ paths: [String], ingest: (String) -> IngestOutcome, report: (IngestOutcome) -> Void,
        skipped: (SkippedPath) -> Void = { _ in }
    ) throws -> OutsideFailure? {
        for path in try files(paths, skipped: skipped) {
            let outcome = ingest(path)
            report(outcome)
            if let outside = outcome.outsideFailure { return outside }
        }
        return nil
    }
}

/// What a path is, links followed (`stat`).
public enum FileKind: String, Sendable {
    case regular, folder
    case fifo = "FIFO"
    case device, socket
    /// Missing, or a link to nothing.
    case missing

    init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .missing
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .folder
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR, S_IFBLK: self = .device
        default: self = .missing
        }
    }
}

/// A path an ingest passed over because it is not a regular file.
public struct SkippedPath: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let kind: FileKind

    public var description: String {
        kind == .missing
            ? "\(path): skipped, a link to nothing (only regular files are ingested)"
            : "\(path): skipped, a \(kind.rawValue) and not a regular file (only regular files are ingested)"
    }
}

/// A path given to ingest that is neither a file nor a folder.
public struct MissingIngestPath: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    public let path: String

    public var description: String { "\(path): no such file or folder" }
}
