import Foundation
import TestSupport
import XCTest

@testable import KPI

/// A test case with a temporary folder for the small warehouses and files it builds, and a
/// lookup of one metric's values in a report.
class TemporaryWarehouseTestCase: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// Writes `text` to a file named `name` in the folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: directory)
    }

    /// The values of `metric` in `period` of `scope`.
    func value(_ report: KPIReport, _ scope: String, _ period: String, _ metric: String) throws -> MetricValue {
        try XCTUnwrap(
            report.scopes.first { $0.scope == scope }?.periods.first { $0.label == period }?.metrics.first {
                $0.key == metric
            })
    }
}
