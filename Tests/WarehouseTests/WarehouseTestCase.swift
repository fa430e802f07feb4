import Foundation
import TestSupport
import Warehouse
import XCTest

/// A test case with a temporary folder of its own, removed after each test, for the warehouses
/// and files it makes (GRDB's `GRDBTestCase`), and `warehouse`, the one a test works on.
class WarehouseTestCase: XCTestCase {
    var directory: URL!
    /// The warehouse `onEachNewWarehouse` opened last.
    var warehouse: Warehouse!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        warehouse = nil
        try FileManager.default.removeItem(at: directory)
    }

    /// Runs `body` once per backend (SQLite, and PostgreSQL when a server is configured), each
    /// time with `warehouse` a new, empty warehouse there.
    func onEachNewWarehouse(_ body: (DatabaseLocation) throws -> Void) throws {
        try TestWarehouses.forEachBackend(in: directory) { location in
            warehouse = try Warehouse(location: location)
            try body(location)
        }
    }

    /// Writes `text` to a file named `name` in the folder and returns its path.
    func write(_ text: String, named name: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }
}
