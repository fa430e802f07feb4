import Foundation

/// The files an ingest takes from the paths it is given (SPEC section 5): a file as given, a
/// folder as its visible regular files in name order. The cron inbox lists its files the same way.
public enum IngestPaths {
    /// Files as given, folders as their visible regular files in name order (no hidden files,
    /// no subfolders, no `.reason.txt` files); throws `MissingIngestPath` for a path that is not there.
    public static func files(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw MissingIngestPath(path: path) }
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

/// A path given to ingest that is neither a file nor a folder.
public struct MissingIngestPath: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    public let path: String

    public var description: String { "\(path): no such file or folder" }
}
