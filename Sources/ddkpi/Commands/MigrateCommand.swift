import ArgumentParser
import Warehouse

/// `ddkpi migrate`: applies the warehouse's pending schema migrations, and nothing else.
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the warehouse's pending schema migrations (under the ingest lock), and nothing else.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let configuration = try global.configuration()
        let path = global.databasePath(configuration)
        let lock = try IngestLock(databasePath: path)
        defer { lock.release() }
        let pending: [String]
        do {
            pending = try Warehouse.pendingMigrations(path: path)
        } catch {
            throw ConfigurationError("cannot open the warehouse \(path): \(error)")
        }
        _ = try global.open(configuration, mode: .migrating)
        if pending.isEmpty {
            print("\(path): the schema is current; nothing to migrate")
        } else {
            print("\(path): applied \(pending.count) migration\(pending.count == 1 ? "" : "s"): \(pending.joined(separator: "; "))")
        }
    }
}
