import Foundation
import GRDB
import PostgresClient
import Warehouse
import XCTest

/// Fresh, empty warehouses on each backend, for suites that run the same tests against SQLite
/// and PostgreSQL (SPEC section 14).
public enum TestWarehouses {
    /// The backends a test runs on: SQLite always, PostgreSQL when a server is configured (always
    /// under CI; elsewhere a test without one says so and runs on SQLite alone).
    public static func locations(in directory: URL, name: String = "test") throws -> [DatabaseLocation] {
        var locations = [DatabaseLocation.sqlite(path: directory.appendingPathComponent("\(name).sqlite").path)]
        if let url = try postgresURLIfAvailable() { locations.append(.postgres(url: try freshSchema(on: url))) }
        return locations
    }

    /// A URL for a new, empty schema on the test server (skips the test when there is none).
    public static func postgresWarehouseURL() throws -> String {
        try freshSchema(on: try TestPostgres.url())
    }

    /// Runs `body` once per backend, each time with a new, empty warehouse location; prints the
    /// backend first, so that a failure's output says which one it was on.
    public static func forEachBackend(in directory: URL, _ body: (DatabaseLocation) throws -> Void) throws {
        for location in try locations(in: directory) {
            print("backend: \(location.backendName)")
            try body(location)
        }
    }

    private static func postgresURLIfAvailable() throws -> String? {
        do {
            return try TestPostgres.url()
        } catch is XCTSkip {
            return nil
        }
    }

    /// Creates a schema of its own on the server and returns the URL that puts it first on
    /// the search path, so that every test starts from an empty warehouse.
    private static func freshSchema(on url: String) throws -> String {
        let schema = "test_\(UUID().uuidString.prefix(8).lowercased())"
        try PostgresConnection(url: url).execute("CREATE SCHEMA \(schema)")
        return PostgresURL.url(url, searchPath: schema)
    }
}

extension DatabaseLocation {
    /// The location as `--db` takes it: the path or the URL.
    public var argument: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return url
        }
    }

    /// `sqlite` or `postgresql`.
    public var backendName: String {
        switch self {
        case .sqlite: return "sqlite"
        case .postgres: return "postgresql"
        }
    }
}

extension Warehouse {
    /// A SQLite warehouse's file opened apart from the warehouse, for tests' own SQL.
    public func sqliteQueue() throws -> DatabaseQueue {
        guard case .sqlite(let path) = location else { throw XCTSkip("not a SQLite warehouse: \(location)") }
        return try DatabaseQueue(path: path)
    }
}
