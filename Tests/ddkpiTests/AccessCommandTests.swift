import Foundation
import PostgresClient
import TestSupport
import XCTest

/// `ddkpi access` (SPEC section 23): the PostgreSQL server lets a scoped role read only its stores,
/// through `psql` as through ddkpi, and ddkpi shows it no aggregate beyond them.
final class AccessCommandTests: XCTestCase {
    /// The samples on a fresh schema, a store role for 08 and a region role for East.
    private struct Setting {
        let url: String
        let admin: PostgresConnection
        let storeRole: String
        let regionRole: String

        /// The warehouse's URL signed in as `role` (the test cluster trusts loopback).
        func url(as role: String) throws -> String {
            guard let scheme = url.range(of: "://"), let at = url[scheme.upperBound...].firstIndex(of: "@") else {
                throw XCTSkip("unexpected test URL")
            }
            return url.replacingCharacters(in: scheme.upperBound..<at, with: role)
        }

        func ddkpi(_ arguments: [String], as role: String? = nil) throws -> CommandRunner.Result {
            try CommandRunner.ddkpi(
                ["--db", try role.map(url(as:)) ?? url] + arguments, environment: ["NO_COLOR": "1"])
        }

        func count(_ sql: String, on connection: PostgresConnection? = nil) throws -> Int64 {
            try XCTUnwrap((connection ?? admin).execute(sql).int64(row: 0, column: 0), sql)
        }
    }

    private func setting() throws -> Setting {
        let url = try TestWarehouses.postgresWarehouseURL()
        try GoldenReportTests.ingestSamples(into: url)
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let setting = Setting(
            url: url, admin: try PostgresConnection(url: url), storeRole: "dir08_\(suffix)",
            regionRole: "east_\(suffix)")
        let password = FileManager.default.temporaryDirectory.appendingPathComponent("ddkpi-access-\(suffix)").path
        try "s3cret-\(suffix)\n".write(toFile: password, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: password) }
        for (role, scope) in [(setting.storeRole, ["--store", "08"]), (setting.regionRole, ["--region", "East"])] {
            let granted = try setting.ddkpi(["access", "grant", role, "--login", "--password-file", password] + scope)
            XCTAssertEqual(granted.status, 0, granted.stderr)
        }
        addTeardownBlock {
            for role in [setting.storeRole, setting.regionRole] {
                _ = try? setting.ddkpi(["access", "revoke", role])
                _ = try? setting.admin.executeScript("DROP OWNED BY \(role); DROP ROLE IF EXISTS \(role)")
            }
        }
        return setting
    }

    /// Signed in with its own role, each sees in every table that holds a store's rows exactly the
    /// rows of its stores, global goals, the names its stores' rows carry, and no rejects.
    func testTheServerShowsEachRoleTheRowsOfItsStoresInEveryTable() throws {
        let setting = try setting()
        // Every table a scoped role may read (the migrations' list aside) is cut by forced
        // row-level security: a table granted without its policy would show every store.
        let readable = """
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE c.relkind = 'r' AND n.nspname = current_schema() AND c.relname <> 'ddkpi_migrations'
                AND has_table_privilege('\(setting.storeRole)', c.oid, 'SELECT')
            """
        XCTAssertGreaterThanOrEqual(try setting.count("SELECT count(*) \(readable)"), 28)
        XCTAssertEqual(
            try setting.count("SELECT count(*) \(readable) AND NOT (c.relrowsecurity AND c.relforcerowsecurity)"), 0)
        let tables = try setting.admin.execute(
            """
            SELECT table_name, column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND column_name IN ('store_code', 'code')
                AND table_name NOT LIKE 'access_%' ORDER BY table_name
            """)
        XCTAssertGreaterThanOrEqual(tables.rowCount, 20)
        for (role, stores) in [(setting.storeRole, "'08'"), (setting.regionRole, "'08', '10', '12'")] {
            let connection = try PostgresConnection(url: try setting.url(as: role))
            for row in 0..<tables.rowCount {
                let (table, column) = (tables.text(row: row, column: 0) ?? "", tables.text(row: row, column: 1) ?? "")
                XCTAssertEqual(
                    try setting.count("SELECT count(*) FROM \(table)", on: connection),
                    try setting.count("SELECT count(*) FROM \(table) WHERE \(column) IN (\(stores))"),
                    "\(role): \(table)")
            }
            XCTAssertEqual(
                try setting.count("SELECT count(*) FROM goal", on: connection),
                try setting.count("SELECT count(*) FROM goal WHERE scope = 'global' OR scope IN (\(stores))"), role)
            XCTAssertEqual(
                try setting.count("SELECT count(*) FROM employee", on: connection),
                try setting.count(
                    """
                    SELECT count(*) FROM employee e WHERE EXISTS (
                        SELECT 1 FROM employee_report r WHERE r.employee_id = e.employee_id AND r.store_code IN (\(stores)))
                    """), role)
            XCTAssertThrowsError(try connection.execute("SELECT count(*) FROM ingest_reject"), role)
            XCTAssertThrowsError(try connection.execute("SELECT sum(read_rows) FROM ingest_run"), "whole-file totals")
            XCTAssertThrowsError(try connection.execute("DELETE FROM store_report"), "\(role) may only read")
        }
    }

    /// Through ddkpi: the store role's kpi is its store alone, the region role's its stores and
    /// region, never `All stores`, with the owner's numbers; writes and other scopes exit 2.
    func testDdkpiShowsAScopedRoleItsStoresAndNoAggregateBeyondThem() throws {
        let setting = try setting()
        let kpi = ["kpi", "--as-of", "2025-06-15", "--format", "json"]
        func scopes(_ result: CommandRunner.Result) throws -> [String: Any] {
            XCTAssertEqual(result.status, 0, result.stderr)
            let report = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let list = try XCTUnwrap(report["scopes"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: list.map { ($0["scope"] as? String ?? "", $0) })
        }
        let owner = try scopes(try setting.ddkpi(kpi))
        let store = try scopes(try setting.ddkpi(kpi, as: setting.storeRole))
        let region = try scopes(try setting.ddkpi(kpi, as: setting.regionRole))
        XCTAssertEqual(store.keys.sorted(), ["08"])
        XCTAssertEqual(region.keys.sorted(), ["08", "10", "12", "region:East"])
        for (scope, values) in store.merging(region, uniquingKeysWith: { one, _ in one }) {
            XCTAssertEqual(
                try JSONSerialization.data(withJSONObject: values, options: .sortedKeys),
                try JSONSerialization.data(withJSONObject: try XCTUnwrap(owner[scope]), options: .sortedKeys), scope)
        }
        let text = try setting.ddkpi(["kpi", "--as-of", "2025-06-15"], as: setting.regionRole)
        XCTAssertFalse(text.stdout.contains("All stores"), text.stdout)
        let employees = try setting.ddkpi(
            ["employees", "--as-of", "2025-06-15", "--period", "QTD", "--format", "csv"], as: setting.regionRole)
        XCTAssertEqual(employees.status, 0, employees.stderr)
        XCTAssertEqual(
            Set(employees.stdout.split(separator: "\n").dropFirst().compactMap { $0.split(separator: ",").first }),
            ["08", "10", "12"], "no chain-wide top list for a region role")

        let outside = try setting.ddkpi(["kpi", "--region", "East"], as: setting.storeRole)
        XCTAssertEqual(outside.status, 2)
        XCTAssertTrue(outside.stderr.contains("--region is outside its scope"), outside.stderr)
        let hidden = try setting.ddkpi(["kpi", "--store", "27"], as: setting.regionRole)
        XCTAssertEqual(hidden.status, 2)
        XCTAssertFalse(hidden.stderr.contains("21") || hidden.stderr.contains("Warwick"), "no hidden store is named")

        for command in [["alerts"], ["outbox", "list"]] {
            let refused = try setting.ddkpi(command, as: setting.regionRole)
            XCTAssertEqual(refused.status, 2, command.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains("role \(setting.regionRole) may not read"), refused.stderr)
        }

        let stores = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/reference/stores.csv").path
        for write in [
            ["stores", "import", stores], ["rollups", "rebuild"], ["access", "revoke", setting.regionRole],
        ] {
            let refused = try setting.ddkpi(write, as: setting.storeRole)
            XCTAssertEqual(refused.status, 2, write.joined(separator: " "))
            XCTAssertTrue(refused.stderr.contains("role \(setting.storeRole) may only read"), refused.stderr)
        }

        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = directory.appendingPathComponent("plan.toml").path
        for (pack, allowed) in [("region = \"East\"", true), ("all = true", false), ("region = \"South\"", false)] {
            try "[[pack]]\nname = \"p\"\n\(pack)\nreports = [\"kpi\"]\nformats = [\"html\"]\n".write(
                toFile: plan, atomically: true, encoding: .utf8)
            let published = try setting.ddkpi(
                [
                    "publish", "--plan", plan, "--out", directory.appendingPathComponent("out").path, "--as-of",
                    "2025-06-15",
                ],
                as: setting.regionRole)
            XCTAssertEqual(published.status, allowed ? 0 : 2, "\(pack): \(published.stderr)")
            if allowed {
                let sending = try setting.ddkpi(
                    [
                        "publish", "--plan", plan, "--out", directory.appendingPathComponent("sent").path, "--as-of",
                        "2025-06-15", "--send",
                    ], as: setting.regionRole)
                XCTAssertEqual(sending.status, 2, sending.stderr)
                XCTAssertTrue(sending.stderr.contains("may only read"), sending.stderr)
                XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appendingPathComponent("sent").path))
            }
            if !allowed { XCTAssertTrue(published.stderr.contains("is outside its scope"), published.stderr) }
        }

        // A credit application at store 21 on 07-05: the store role's status judges the event
        // feed over every store, without naming the store.
        let credit = directory.appendingPathComponent("credit_applications_0705.csv").path
        try "Store No;App Date;Applicant Name;Credit Limit\n21;2025-07-05;Eve Diaz;1500\n".write(
            toFile: credit, atomically: true, encoding: .utf8)
        XCTAssertEqual(try setting.ddkpi(["ingest", credit]).status, 0)
        let status = try setting.ddkpi(["status", "--as-of", "2025-07-06"], as: setting.storeRole)
        let creditLine = try XCTUnwrap(status.stdout.split(separator: "\n").first { $0.hasPrefix("credit-apps") })
        XCTAssertTrue(creditLine.contains("ALL") && creditLine.contains("2025-07-05"), String(creditLine))
        XCTAssertFalse(status.stdout.contains(" 21 "), status.stdout)

        let runs = try setting.ddkpi(["runs", "--format", "json", "--limit", "100"], as: setting.storeRole)
        XCTAssertEqual(runs.status, 0, runs.stderr)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(
            Int64(listed.count),
            try setting.count("SELECT count(DISTINCT run_id) FROM ingest_run_store WHERE store_code = '08'"))
        XCTAssertFalse(listed.contains { $0["feed"] as? String == "access" }, "grants touch no store")
        let inserted = listed.compactMap { $0["inserted"] as? Int }.reduce(0, +)
        XCTAssertEqual(
            Int64(inserted), try setting.count("SELECT sum(inserted) FROM ingest_run_store WHERE store_code = '08'"))
        // The whole file's counts are not the role's to read: absent, not zero.
        XCTAssertFalse(listed.contains { $0["read"] != nil || $0["rejected"] != nil }, runs.stdout)
        let first = try XCTUnwrap(listed.first?["id"] as? Int)
        let shown = try setting.ddkpi(["runs", "show", String(first)], as: setting.storeRole)
        XCTAssertEqual(shown.status, 0, shown.stderr)
        XCTAssertTrue(shown.stdout.contains("in your stores: inserted"), shown.stdout)
        XCTAssertFalse(shown.stdout.contains("read 0"), shown.stdout)
        let table = try setting.ddkpi(["runs"], as: setting.storeRole)
        XCTAssertTrue(table.stdout.contains("—"), table.stdout)
    }

    /// Grants are runs of the ledger; `list` names each scope; `revoke` drops a role ddkpi made.
    func testGrantsAreListedRecordedAndRevoked() throws {
        let setting = try setting()
        let list = try setting.ddkpi(["access", "list", "--format", "json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(
            list.stdout.contains(
                "{\"createdRole\":true,\"grantedAt\":\"")
                && list.stdout.contains(
                    "\"region\":\"East\",\"role\":\"\(setting.regionRole)\",\"scope\":\"region\",\"stores\":[]}"),
            list.stdout)
        XCTAssertTrue(
            list.stdout.contains("\"role\":\"\(setting.storeRole)\",\"scope\":\"stores\",\"stores\":[\"08\"]}"),
            list.stdout)
        XCTAssertEqual(
            try setting.count("SELECT count(*) FROM ingest_run WHERE feed = 'access' AND sheet LIKE 'grant %'"), 2)

        let revoked = try setting.ddkpi(["access", "revoke", setting.storeRole])
        XCTAssertEqual(revoked.status, 0, revoked.stderr)
        XCTAssertTrue(revoked.stdout.contains("the role is dropped"), revoked.stdout)
        XCTAssertEqual(
            try setting.count("SELECT count(*) FROM pg_roles WHERE rolname = '\(setting.storeRole)'"), 0)

        let bad = try setting.ddkpi(["access", "grant", "Robert'); DROP TABLE store;--", "--all"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("expected a lower-case name"), bad.stderr)
    }

    func testSQLiteHasNoRoles() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("w.sqlite").path
        let stores = TestPaths.packageRoot.appendingPathComponent("SampleFeeds/reference/stores.csv").path
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        let result = try CommandRunner.ddkpi(["--db", database, "access", "grant", "dir08", "--store", "08"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.stderr.contains("a pack (ddkpi publish) is how a file is scoped"), result.stderr)
    }
}
