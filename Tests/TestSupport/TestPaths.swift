import Foundation

/// Where test inputs live: committed fixtures, the shared real-world corpus, temp folders.
public enum TestPaths {
    /// The package root (found from this file's path).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A committed fixture in `Tests/Fixtures`.
    public static func fixture(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/\(name)").path
    }

    /// `../shared/corpus` beside the checkout, or `nil` when it is absent.
    public static var corpus: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// A fresh temporary directory, removed by the caller's `tearDown` through `removeTemporary`.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ddkpi-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes bytes to a file in `directory` and returns its path.
    @discardableResult
    public static func write(_ bytes: [UInt8], named name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}
