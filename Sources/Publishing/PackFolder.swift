import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pack's folder, written beside its place under a hidden name and swapped in whole (SPEC
/// section 19): after a publish the folder holds exactly the files its manifest lists, a link
/// already at the pack's or a document's place is replaced rather than written through, and a
/// publish that fails (a full disk) leaves the earlier pack as it was and no partial document.
struct PackFolder {
    /// Where the pack belongs: `<out>/<name>`.
    let destination: URL
    /// Where it is written first: `<out>/.<name>.partial`.
    let staging: URL

    /// Makes a new, empty staging folder for pack `name` under `directory` (creating that).
    init(name: String, in directory: String) throws {
        let out = URL(fileURLWithPath: directory)
        destination = out.appendingPathComponent(name)
        staging = out.appendingPathComponent(".\(name).partial")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Self.remove(staging)
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
    }

    /// The path of a file in the staging folder.
    func path(of file: String) -> String { staging.appendingPathComponent(file).path }

    /// Puts the staging folder in the pack's place: what was there (a folder, a file or a link)
    /// is renamed aside first and removed after, so that the place always holds a whole pack.
    func install() throws {
        let aside = destination.deletingLastPathComponent().appendingPathComponent(
            ".\(destination.lastPathComponent).old")
        try Self.remove(aside)
        let hadOne = Self.exists(destination)
        if hadOne { try Self.move(destination, to: aside) }
        do {
            try Self.move(staging, to: destination)
        } catch {
            if hadOne { try? Self.move(aside, to: destination) }
            throw error
        }
        if hadOne { try Self.remove(aside) }
    }

    /// Removes the staging folder (after a failure).
    func discard() { try? Self.remove(staging) }

    /// Whether anything, a dangling link included, is at `url`.
    private static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Removes whatever is at `url`; a link is removed, never what it points to.
    private static func remove(_ url: URL) throws {
        guard exists(url) else { return }
        try FileManager.default.removeItem(atPath: url.path)
    }

    /// Renames `from` to `to` (rename(2): a link is moved, never followed).
    private static func move(_ from: URL, to: URL) throws {
        guard rename(from.path, to.path) == 0 else {
            throw PackWriteError(path: to.path, reason: String(cString: strerror(errno)))
        }
    }
}

/// A pack that could not be written (a full disk, no permission): the file and why.
public struct PackWriteError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): cannot write the pack: \(reason)" }

    init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// The error of writing `path`: the operating system's reason when there is one (a full
    /// disk), else the writer's own message.
    init(path: String, error: Error) {
        let underlying =
            (error as? CocoaError)?.underlying ?? (error as NSError).userInfo[NSUnderlyingErrorKey] as? Error
        if let posix = [underlying, error].compactMap({ $0.map { $0 as NSError } }).first(where: {
            $0.domain == NSPOSIXErrorDomain
        }) {
            self.init(path: path, reason: String(cString: strerror(Int32(posix.code))))
        } else {
            self.init(path: path, reason: "\(error)")
        }
    }
}
