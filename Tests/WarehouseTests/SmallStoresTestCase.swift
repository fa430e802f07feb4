import Feeds
import SheetStream
import TestSupport
import Warehouse
import XCTest

/// Storage tests (SPEC sections 5 and 14) on a new warehouse of each backend holding the small
/// store directory (`feeds/stores_small.csv`), with files ingested through the path the CLI uses.
class SmallStoresTestCase: WarehouseTestCase {
    /// Runs `body` on a new warehouse of each backend holding the small store directory.
    func onEachBackend(_ body: () throws -> Void) throws {
        try onEachNewWarehouse { _ in
            XCTAssertEqual(ingest("stores_small.csv", as: .stores).status, .ok)
            try body()
        }
    }

    func count(_ table: String) throws -> Int64? { try warehouse.integer("SELECT count(*) FROM \(table)") }

    /// Each row of `sql` as its columns joined by spaces, `-` for NULL.
    func storedRows(_ sql: String, columns: Int) throws -> [String] {
        try warehouse.rows(sql, columns: columns).map { $0.map { $0 ?? "-" }.joined(separator: " ") }
    }

    /// Ingests a file through the same path the CLI uses.
    @discardableResult
    func ingest(
        _ fixture: String, as feed: FeedID, path: String? = nil, options: IngestOptions = IngestOptions(),
        failAfter: Int? = nil
    ) -> IngestOutcome {
        let file = path ?? TestPaths.fixture("feeds/\(fixture)")
        return warehouse.ingest(path: file, options: options) {
            let spreadsheet = try SpreadsheetFile.open(path: file)
            let reader = FeedFileReader(
                definition: FeedCatalog.definition(feed), directory: try warehouse.storeDirectory(),
                options: FeedOptions())
            return PreparedFeed(feed: feed) { emit in
                var written = 0
                return try reader.read(spreadsheet) { record, row in
                    if let failAfter, written == failAfter { throw SimulatedCrash() }
                    try emit(record, row)
                    written += 1
                }
            }
        }
    }

    struct SimulatedCrash: Error {}

    /// The rows of the reference tables and two feed tables as text, for exact comparisons.
    func dump() throws -> [[String?]] {
        let tables = [
            ("store", ["code", "name", "region", "status"]),
            ("store_alias", ["alias_key", "alias", "store_code"]),
            ("goal", ["period", "scope", "metric", "date", "target"]),
            (
                "store_report",
                [
                    "date", "store_code", "total_sales_cents", "total_transactions", "total_items",
                    "ccp_pct_millionths",
                    "gp_pct_millionths", "upt", "ads_cents", "ingest_run_id",
                ]
            ),
            ("credit_report", ["date", "store_code", "total_applications", "ingest_run_id"]),
        ]
        return try tables.flatMap { table, columns in
            try warehouse.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY 1, 2", columns: columns.count)
        }
    }
}
