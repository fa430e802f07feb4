import CivilCalendar
import Feeds
import Foundation
import TestSupport
import XCTest

@testable import Warehouse

/// The feed tables' declarations (`FeedTables`) are the schema the migrations build: the same
/// columns with the same types and nullability, and the dedup key as the primary key, on both
/// backends. A column declared without its migration, or the other way round, fails here.
final class FeedTableSchemaTests: XCTestCase {
    /// Runs `body` on a new, migrated warehouse of each backend.
    private func onEachBackend(_ body: (Warehouse, BackendKind) throws -> Void) throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestWarehouses.forEachBackend(in: directory) { location in
            if case .sqlite = location {
                try body(try Warehouse(location: location), .sqlite)
            } else {
                try body(try Warehouse(location: location), .postgres)
            }
        }
    }

    func testDeclaredFeedTablesEqualTheMigratedSchema() throws {
        try onEachBackend { warehouse, backend in
            for table in FeedTables.all {
                let live = try warehouse.backend.read { session in
                    try Self.liveColumns(of: table.name, backend, session)
                }
                let declared = table.columnDefinitions(backend)
                XCTAssertEqual(
                    Dictionary(uniqueKeysWithValues: declared.map { ($0.name, $0.definition) }), live.definitions,
                    table.name)
                XCTAssertEqual(table.keyColumnNames, live.primaryKey, "\(table.name) primary key")
            }
            // Every history table holds its table's columns and the run that replaced them.
            for table in HistoryTable.all {
                let (columns, history) = try warehouse.backend.read { session in
                    (
                        try Self.liveColumns(of: table.name, backend, session),
                        try Self.liveColumns(of: table.history, backend, session)
                    )
                }
                XCTAssertEqual(
                    Set(history.definitions.keys),
                    Set(columns.definitions.keys).subtracting(["id"]).union(["replaced_by_run"]),
                    table.history)
                XCTAssertEqual(
                    Set(table.key + table.values), Set(columns.definitions.keys).subtracting(["id"]), table.name)
            }
        }
    }

    /// The DDL a migration adding a feed table would take from its declaration builds the same
    /// table as the shipped migrations did.
    func testCreateTableFromTheDeclarationBuildsTheMigratedTable() throws {
        try onEachBackend { warehouse, backend in
            for table in FeedTables.all {
                let copy = "\(table.name)_declared"
                try warehouse.backend.write { session in
                    try session.execute(table.createTableSQL(backend, named: copy))
                    let built = try Self.liveColumns(of: copy, backend, session)
                    let migrated = try Self.liveColumns(of: table.name, backend, session)
                    XCTAssertEqual(built.definitions, migrated.definitions, table.name)
                    XCTAssertEqual(built.primaryKey, migrated.primaryKey, table.name)
                    try session.execute("DROP TABLE \(copy)")
                }
            }
        }
    }

    func testEveryDataFeedHasOneTable() {
        XCTAssertEqual(FeedTables.all.map(\.feed), FeedID.dataFeeds)
        XCTAssertEqual(Set(FeedTables.all.map(\.name)).count, FeedTables.all.count)
        XCTAssertEqual(
            FeedTables.rolledUp.map(\.name),
            ["store_report", "credit_report", "birdeye_report", "crm_intake_report", "outbound_call_report"])
        XCTAssertEqual(FeedID.merchSales.table, "merch_report")
        XCTAssertEqual(FeedID.goals.table, "goal")
    }

    func testABindRowFollowsTheUpsertsColumns() {
        let record = WeeklyCountRecord(
            store: "08", weekStart: CivilDate(year: 2025, month: 6, day: 2), total: 9,
            dailyCounts: [1, 2, 0, 0, 3, 3, 0])
        var values = PendingValues(capacity: 16)
        FeedTables.outboundCalls.bind(record, runID: 42, sourceRow: 7, into: &values)
        XCTAssertEqual(
            FeedTables.outboundCalls.upsert.columns,
            [
                "week_start", "store_code", "total_calls", "day_0", "day_1", "day_2", "day_3", "day_4", "day_5",
                "day_6",
                "ingest_run_id", "source_row",
            ])
        XCTAssertEqual(values.count, FeedTables.outboundCalls.upsert.columnCount)
    }

    /// Each column's definition as `FeedColumn.definition` writes it, read back from the catalog.
    private static func liveColumns(of table: String, _ backend: BackendKind, _ session: some SQLSession) throws
        -> (definitions: [String: String], primaryKey: [String])
    {
        var definitions: [String: String] = [:]
        var keyed: [(position: Int64, name: String)] = []
        switch backend {
        case .sqlite:
            try session.scan("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", [.text(table)]) { row in
                definitions[row.text(0)] = row.text(0) + " " + row.text(1) + (row.int64(2) == 1 ? " NOT NULL" : "")
                if row.int64(3) > 0 { keyed.append((row.int64(3), row.text(0))) }
            }
            try session.scan(
                "SELECT \"from\" FROM pragma_foreign_key_list(?) WHERE \"table\" = 'store'", [.text(table)]
            ) { row in
                definitions[row.text(0)]? += " REFERENCES store(code)"
            }
        case .postgres:
            try session.scan(
                """
                SELECT column_name, data_type, is_nullable, coalesce(collation_name, '') FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ?
                """, [.text(table)]
            ) { row in
                let type = row.text(1).uppercased() + (row.text(3) == "C" ? " COLLATE \"C\"" : "")
                definitions[row.text(0)] = row.text(0) + " " + type + (row.text(2) == "NO" ? " NOT NULL" : "")
            }
            try session.scan(
                """
                SELECT array_position(i.indkey, a.attnum), a.attname FROM pg_index i
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = ?::regclass AND i.indisprimary
                """, [.text(table)]
            ) { row in keyed.append((row.int64(0), row.text(1))) }
        }
        return (definitions, keyed.sorted { $0.position < $1.position }.map(\.name))
    }
}
