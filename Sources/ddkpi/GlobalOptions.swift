import ArgumentParser
import Foundation
import Warehouse

/// Options every command shares: where the warehouse and the config file are.
struct GlobalOptions: ParsableArguments {
    @Option(help: "The SQLite warehouse (default: $DDKPI_DB, the config's database, or ./ddkpi.sqlite).")
    var db: String?

    @Option(help: "The config file (default: ./ddkpi.toml when present).")
    var config: String?

    func configuration() throws -> Configuration { try Configuration.load(path: config) }

    /// `--db`, then `DDKPI_DB`, then the config file's `database`, then `./ddkpi.sqlite`.
    func databasePath(_ configuration: Configuration) -> String {
        db ?? ProcessInfo.processInfo.environment["DDKPI_DB"] ?? configuration.databasePath ?? "ddkpi.sqlite"
    }

    /// Opens the warehouse for a read-only command: it must exist and have this build's schema
    /// (exit 2 otherwise: "no warehouse at PATH", "run `ddkpi migrate`"); nothing is created.
    func openWarehouse(_ configuration: Configuration) throws -> Warehouse {
        try open(configuration, mode: .readOnly)
    }

    /// Opens (creating if needed) the warehouse for a write command, applying pending migrations
    /// under the ingest lock (SPEC section 5).
    func openWarehouseForWriting(_ configuration: Configuration) throws -> Warehouse {
        let path = databasePath(configuration)
        let pending: Bool
        do {
            pending = try Warehouse.hasPendingMigrations(path: path)
        } catch {
            throw ConfigurationError("cannot open the warehouse \(path): \(error)")
        }
        guard pending else { return try open(configuration, mode: .migrating) }
        let lock = try IngestLock(databasePath: path)
        defer { lock.release() }
        return try open(configuration, mode: .migrating)
    }

    /// Opens the warehouse in `mode`, with no lock (the caller holds it when it must).
    func open(_ configuration: Configuration, mode: Warehouse.OpenMode) throws -> Warehouse {
        let location = DatabaseLocation(databasePath(configuration))
        if case .postgres = location {
            throw ConfigurationError(
                "\(location): PostgreSQL warehouses are not supported by this build yet (only the connection layer is); use a SQLite path")
        }
        do {
            return try Warehouse(path: databasePath(configuration), mode: mode)
        } catch {
            throw ConfigurationError("\(error)")
        }
    }
}
