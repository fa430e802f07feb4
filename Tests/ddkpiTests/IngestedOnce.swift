import Foundation
import TestSupport

/// A warehouse that a test class ingests once, on first use, into a temporary folder of its
/// own, which the class's `tearDown` removes (`remove()`).
final class IngestedOnce {
    private let fileName: String
    private let ingest: (String) throws -> Void
    /// The folder the warehouse is in, once ingested.
    private(set) var directory: URL?
    private var database: String?

    /// A warehouse file `fileName` that `ingest` fills (given its path).
    init(fileName: String, ingest: @escaping (String) throws -> Void) {
        self.fileName = fileName
        self.ingest = ingest
    }

    /// The warehouse's path, ingested on the first call.
    func path() throws -> String {
        if let database { return database }
        let directory = try TestPaths.temporaryDirectory()
        let database = directory.appendingPathComponent(fileName).path
        try ingest(database)
        self.directory = directory
        self.database = database
        return database
    }

    /// Removes the folder and the warehouse in it.
    func remove() {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        directory = nil
        database = nil
    }
}
