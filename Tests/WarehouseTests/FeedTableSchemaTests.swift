import CivilCalendar
import Feeds
import Foundation
import TestSupport
import XCTest

@testable import Warehouse

/// The feed tables' declarations (`FeedTables`) are the schema the migrations build: the same
/// columns with the same types and nullability, and the dedup key as the primary key, on both
/// backends. A column declared without its migration, or the other way round, fails here.
final class FeedTableSchemaTests: WarehouseTestCase {
    /// Runs `body` on a new, migrated warehouse of each backend.
    private func onEachBackend(_ body: (Warehouse, BackendKind) throws -> Void) throws {
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

    /// Each table's declaration builds the same table as the shipped migrations did, so the
    /// declaration and the schema cannot drift apart.
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

    func testEveryMeasureIsAddedByOneTable() {
        let added = FeedTables.all.compactMap(\.measures).map(\.names)
        XCTAssertEqual(added.reduce(0) { $0 + $1.count }, MeasureName.allCases.count)
        XCTAssertEqual(added.reduce(Set()) { $0.union($1) }, Set(MeasureName.allCases))
        XCTAssertEqual(
            FeedTables.measured(.day).map(\.table.name), ["store_report", "credit_report", "crm_intake_report"])
        XCTAssertEqual(FeedTables.measured(.week).map(\.table.name), ["birdeye_report", "outbound_call_report"])
        XCTAssertEqual(FeedTables.outboundCalls.measures?.columns, ["total_calls"])
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

    /// `bindDirectly` (the sales audit's own column list) gives what the declaration's `bind`
    /// gives, value for value, whichever figures are missing.
    func testADirectlyBoundRowIsTheDeclaredRow() {
        let days = [CivilDate(year: 2025, month: 6, day: 2), CivilDate(year: 1900, month: 1, day: 1)]
        let figures = [
            SalesFigures(
                totalSalesCents: 1_234_56, totalTransactions: 7, totalItems: 19, ccpPctMillionths: 412_500,
                gpPctMillionths: 38_000_000),
            SalesFigures(totalSalesCents: -5_00, totalTransactions: 0, totalItems: 0),
            SalesFigures(totalSalesCents: 0, totalTransactions: 3, totalItems: 2, gpPctMillionths: -1),
        ]
        for (store, date) in zip(["08", "Store 1040 — Ünïcode"], days) {
            for figures in figures {
                let record = SalesAuditRecord(store: store, date: date, figures: figures)
                var declared = PendingValues(capacity: 16)
                var direct = PendingValues(capacity: 16)
                FeedTables.salesAudit.bind(record, runID: 42, sourceRow: 7, into: &declared)
                FeedTables.salesAudit.bindDirectly(record, runID: 42, sourceRow: 7, into: &direct)
                XCTAssertEqual(direct.count, FeedTables.salesAudit.upsert.columnCount)
                XCTAssertEqual(typedValues(direct), typedValues(declared), "\(record)")
            }
        }
    }

    /// Each value with its type: `NULL`, `integer 42`, `real 2.5`, `text 08`.
    private func typedValues(_ pending: PendingValues) -> [String] {
        pending.values.map { value in
            switch value {
            case .null: return "NULL"
            case .integer(let number): return "integer \(number)"
            case .real(let number): return "real \(number)"
            case .text(let offset, let count):
                return "text " + String(decoding: pending.text[offset..<offset + count], as: UTF8.self)
            }
        }
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
