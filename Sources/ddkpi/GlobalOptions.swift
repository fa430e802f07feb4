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

    func openWarehouse(_ configuration: Configuration) throws -> Warehouse {
        let location = DatabaseLocation(databasePath(configuration))
        if case .postgres = location {
            throw ConfigurationError(
                "\(location): PostgreSQL warehouses are not supported by this build yet (only the connection layer is); use a SQLite path")
        }
        do {
            return try Warehouse(path: databasePath(configuration))
        } catch {
            throw ConfigurationError("\(error)")
        }
    }
}
