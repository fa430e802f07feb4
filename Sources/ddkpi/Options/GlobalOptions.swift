import ArgumentParser
import Foundation
import Warehouse

/// Options every command shares: where the warehouse and the config file are.
struct GlobalOptions: ParsableArguments {
    @Option(
        help:
            "The warehouse: a SQLite file, or a postgresql:// URL (default: $DDKPI_DB, the config's database, or ./ddkpi.sqlite)."
    )
    var db: String?

    @Option(help: "The config file (default: ./ddkpi.toml when present).")
    var config: String?

    @Option(help: "How many seconds a write command waits for another one's ingest lock before it exits 3.")
    var lockTimeout: Double = 60

    func validate() throws {
        guard lockTimeout.isFinite, lockTimeout >= 0 else {
            throw ValidationError("--lock-timeout: expected a number of seconds of 0 or more, not \(lockTimeout)")
        }
    }

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

    /// Opens (creating if needed) the warehouse for a write command; the warehouse applies
    /// pending migrations under the ingest lock (SPEC section 5; exit 3 when it is held).
    func openWarehouseForWriting(_ configuration: Configuration) throws -> Warehouse {
        try open(configuration, mode: .migrating)
    }

    /// Opens the warehouse for a read command a role `ddkpi access` scoped may not run (`alerts`,
    /// `outbox`: SPEC section 23): exit 2 naming the role.
    func openWarehouseUnscoped(_ configuration: Configuration, for what: String) throws -> Warehouse {
        let warehouse = try openWarehouse(configuration)
        do {
            try warehouse.refuseScopedReader(what)
        } catch let error as WarehouseError {
            throw ConfigurationError("\(error)")
        }
        return warehouse
    }

    /// Where the warehouse is: a SQLite path or a PostgreSQL URL (SPEC section 14).
    func databaseLocation(_ configuration: Configuration) -> DatabaseLocation {
        DatabaseLocation(databasePath(configuration))
    }

    private func open(_ configuration: Configuration, mode: Warehouse.OpenMode) throws -> Warehouse {
        do {
            return try Warehouse(location: databaseLocation(configuration), mode: mode)
        } catch let held as WarehouseLockHeld {
            Diagnostics.error("\(held)")
            throw ExitCode(ExitStatus.lockHeld)
        } catch {
            throw ConfigurationError("\(error)")
        }
    }
}

extension Warehouse {
    /// Takes the ingest lock, waiting up to `timeout` seconds while another process holds it,
    /// then exits 3 (SPEC section 5: two write commands never interleave).
    func ingestLockOrExit(waiting timeout: Double) throws -> IngestLock {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let lock = try tryIngestLock() { return lock }
            guard Date() < deadline else { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Diagnostics.error("another ingest holds the lock of \(location) (waited \(timeout) s); not running")
        throw ExitCode(ExitStatus.lockHeld)
    }
}
