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
        let warehouse = try global.openWarehouseForWriting(configuration)
        let applied = warehouse.appliedMigrations
        if applied.isEmpty {
            print("\(warehouse.location): the schema is current; nothing to migrate")
        } else {
            print(
                "\(warehouse.location): applied \(applied.count) migration\(applied.count == 1 ? "" : "s"): \(applied.joined(separator: "; "))"
            )
        }
    }
}
