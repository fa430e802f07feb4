import CivilCalendar
import Foundation
import KPI
import Reports
import SheetFixtures
import TestSupport
import Warehouse
import XCTest

/// `explain` (SPEC section 17) over random queries on the samples, on each backend, with the
/// rollups on and bypassed: the JSON rows sum to the components exactly, the components give
/// the value `kpi` prints, and the target's parts give its target.
final class ExplainTests: XCTestCase {
    static let quarters = ["2024Q2", "2024Q3", "2024Q4", "2025Q1", "2025Q2"]

    func testTwoHundredRandomQueriesAddUpOnEachBackend() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestWarehouses.forEachBackend(in: directory) { location in
            let path: String
            switch location {
            case .sqlite(let file): path = file
            case .postgres(let url): path = url
            }
            let warehouse = try SampleWarehouse.sampleFeeds(at: path)
            let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
            let stores = try warehouse.stores()
            var random = SplitMix(seed: 17)
            let quarters = Self.quarters.compactMap(engine.calendar.quarter(named:))
            let days = DateRange(
                start: CivilDate(year: 2024, month: 3, day: 1), end: CivilDate(year: 2025, month: 6, day: 30))
            for query in 0..<200 {
                warehouse.usesRollups = query % 2 == 0
                let request = ExplainRequest.random(
                    stores: stores.map(\.code), regions: Set(stores.compactMap(\.region)).sorted(), days: days,
                    quarters: quarters, using: &random)
                try check(request, engine: engine, context: "query \(query) (rollups \(warehouse.usesRollups))")
            }
            warehouse.usesRollups = true
        }
    }

    private func check(_ request: ExplainRequest, engine: KPIEngine, context: String) throws {
        let explanation = try engine.explain(request)
        let renderer = ExplainRenderer(format: .json, limit: nil)
        var json = renderer.head(explanation)
        var count = 0
        try engine.warehouse.contributingRows(
            Set(explanation.components.map(\.measure)), from: explanation.range.start, through: explanation.range.end,
            stores: Set(explanation.stores)
        ) { row in
            json += renderer.row(row, number: count) ?? ""
            count += 1
        }
        json += renderer.tail(explanation, rows: count)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], context)
        let components = try XCTUnwrap(document["components"] as? [String: Int64], context)
        let rows = try XCTUnwrap(document["rows"] as? [[String: Any]], context)
        var summed: [String: Int64] = [:]
        for row in rows {
            for (name, value) in try XCTUnwrap(row["values"] as? [String: Int64], context) {
                summed[name, default: 0] += value
            }
            XCTAssertNotNil(row["file"] as? String, "\(context): every sample row has its file")
        }
        for (name, value) in components { XCTAssertEqual(summed[name, default: 0], value, "\(context): \(name)") }
        // The components give the value kpi prints, and the parts give the target.
        XCTAssertEqual(try engine.audit(explanation), [], context)
    }
}
