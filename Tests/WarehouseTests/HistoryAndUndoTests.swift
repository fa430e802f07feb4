import CivilCalendar
import Feeds
import Foundation
import Ingest
import SheetFixtures
import TestSupport
import XCTest

@testable import Warehouse

/// History and undo (SPEC section 16), on each backend: every row knows its run and source
/// row, an update keeps the values it replaced, and an undo gives back exactly what was there.
final class HistoryAndUndoTests: WarehouseTestCase {
    /// The ledger's per-store first and last dates are the feed tables' date text: a day, or a
    /// month for the month rows of associate and merch files.
    func testRunStoreDateKeysAreTheTablesDateText() {
        XCTAssertEqual(RunStoreTally.dateKey(2025_06_07), "2025-06-07")
        XCTAssertEqual(RunStoreTally.dateKey(2025_06_00), "2025-06")
        XCTAssertEqual(RunStoreTally.dateKey(999_12_31), "0999-12-31")
        XCTAssertEqual(
            RunStoreTally.dateKey(2025_11_00), String(CivilDate(year: 2025, month: 11, day: 1).iso8601.prefix(7)))
    }

    /// Runs `body` on a new warehouse of each backend holding two stores.
    private func onEachBackend(_ body: () throws -> Void) throws {
        try onEachNewWarehouse { _ in
            ingest(
                "stores.csv", "code,name,region,aliases\n08,Natick,East,Natick Mall\n10,Framingham,East,\n", as: .stores
            )
            try body()
        }
    }

    /// Every run, an undo too, records who ran it and where (SPEC section 23): the PostgreSQL
    /// session user, or the operating-system user on SQLite.
    func testEveryRunRecordsItsActorAndHost() throws {
        try onEachNewWarehouse { location in
            ingest("stores.csv", "code,name\n08,Natick\n", as: .stores)
            let sales = ingest(
                "sales_audit.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,5,1,1\n", as: .salesAudit)
            _ = try warehouse.undo(run: try XCTUnwrap(sales.runID), cascade: false)
            let runs = try warehouse.runs(limit: 10)
            XCTAssertEqual(runs.map(\.feed), ["undo", "sales-audit", "stores"])
            let expected: String
            switch location {
            case .sqlite: expected = NSUserName()
            case .postgres(let url): expected = try XCTUnwrap(URLComponents(string: url)?.user)
            }
            XCTAssertEqual(runs.map(\.actor), Array(repeating: expected, count: 3), location.backendName)
            let host = try XCTUnwrap(runs.first?.host)
            XCTAssertFalse(host.isEmpty)
            XCTAssertEqual(runs.map(\.host), Array(repeating: host, count: 3))
            XCTAssertEqual(runs.first?.by, "\(expected)@\(host)")
        }
    }

    @discardableResult
    private func ingest(_ name: String, _ text: String, as feed: FeedID, force: Bool = false) -> IngestOutcome {
        let path = (try? TestPaths.write(Array(text.utf8), named: name, in: directory)) ?? name
        let outcome = FileIngestor(
            warehouse: warehouse, feedOptions: FeedOptions(), explicitFeed: feed, options: IngestOptions(force: force)
        )
        .ingest(path)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
        return outcome
    }

    /// Every table a run can change, as text, for before/after comparisons.
    private func snapshot() throws -> [String: [[String?]]] {
        var tables: [String: [[String?]]] = [:]
        for table in HistoryTable.all {
            let columns = table.key + table.values
            tables[table.name] = try warehouse.rows(
                "SELECT \(columns.joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.key.joined(separator: ", "))",
                columns: columns.count)
        }
        tables["store_alias"] = try warehouse.rows(
            "SELECT alias_key, alias, store_code FROM store_alias ORDER BY alias_key", columns: 3)
        tables["store_month_rollup"] = try warehouse.rows(
            "SELECT \(Warehouse.rollupColumns.joined(separator: ", ")) FROM store_month_rollup ORDER BY month, store_code",
            columns: Warehouse.rollupColumns.count)
        return tables
    }

    private static let sales = """
        Store,Date,Net Sales,Transactions,Items,CCP %
        08,2025-01-30,1000.00,10,20,40%
        10,2025-01-30,500.00,5,9,
        08,2025-01-31,1200.00,12,24,50%
        10,2025-02-01,700.00,7,10,30%
        """

    func testEveryRowKnowsItsRunAndSourceRow() throws {
        try onEachBackend {
            let run = try XCTUnwrap(ingest("sales_audit.csv", "Title row\n" + Self.sales, as: .salesAudit).runID)
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT store_code, date, ingest_run_id, source_row FROM store_report ORDER BY source_row",
                    columns: 4),
                [
                    ["08", "2025-01-30", "\(run)", "3"], ["10", "2025-01-30", "\(run)", "4"],
                    ["08", "2025-01-31", "\(run)", "5"], ["10", "2025-02-01", "\(run)", "6"],
                ])
            XCTAssertEqual(
                try warehouse.rows("SELECT sheet FROM ingest_run WHERE id = ?", ["\(run)"], columns: 1),
                [["sales_audit"]], "a CSV's sheet is its name")
            let credit = try XCTUnwrap(
                ingest("credit.csv", "Store,Date\n08,2025-01-30\n10,2025-01-30\n08,2025-01-30\n", as: .creditApps).runID
            )
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT store_code, total_applications, source_row FROM credit_report WHERE ingest_run_id = ? ORDER BY store_code",
                    ["\(credit)"], columns: 3),
                [["08", "2", "2"], ["10", "1", "3"]], "a count's source row is the first row counted in it")
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT store_code, inserted, updated, unchanged, first_date, last_date FROM ingest_run_store WHERE run_id = ? ORDER BY store_code",
                    ["\(run)"], columns: 6),
                [
                    ["08", "2", "0", "0", "2025-01-30", "2025-01-31"],
                    ["10", "2", "0", "0", "2025-01-30", "2025-02-01"],
                ])
        }
    }

    /// A re-sent file with every value ×10 and a new day, then undone: every table as before.
    func testUndoingAWrongFileGivesBackEveryValueAndTheRollups() throws {
        try onEachBackend {
            ingest("sales_audit.csv", Self.sales, as: .salesAudit)
            ingest(
                "calls.csv", "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n08,2025-01-27,1,2,3,4,5,6,7\n",
                as: .outboundCalls)
            let before = try snapshot()
            let wrong = """
                Store,Date,Net Sales,Transactions,Items,CCP %
                08,2025-01-30,10000.00,10,20,40%
                10,2025-01-30,500.00,5,9,
                08,2025-01-31,12000.00,12,24,50%
                08,2025-02-02,99.00,1,1,
                """
            let outcome = ingest("sales_audit_wrong.csv", wrong, as: .salesAudit)
            XCTAssertEqual(outcome.counts, UpsertCounts(inserted: 1, updated: 2, unchanged: 1))
            let run = try XCTUnwrap(outcome.runID)
            XCTAssertEqual(
                try warehouse.integer(
                    "SELECT count(*) FROM store_report_history WHERE replaced_by_run = ?", ["\(run)"]), 3,
                "two changed keys and one re-sent unchanged, which the run now holds")
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT store_code, inserted, updated, unchanged FROM ingest_run_store WHERE run_id = ? ORDER BY store_code",
                    ["\(run)"], columns: 4),
                [["08", "1", "2", "0"], ["10", "0", "0", "1"]])
            XCTAssertNotEqual(try snapshot(), before)

            let undone = try warehouse.undo(run: run, cascade: false)
            XCTAssertEqual(undone, UndoOutcome(runs: [run], undoRuns: [run + 1], deleted: 1, restored: 2))
            XCTAssertEqual(try snapshot(), before)
            XCTAssertEqual(try warehouse.checkRollups(), [])
            XCTAssertEqual(
                try warehouse.rows("SELECT status FROM ingest_run WHERE id = ?", ["\(run)"], columns: 1), [["undone"]])
            XCTAssertThrowsError(try warehouse.undo(run: run, cascade: false)) { error in
                XCTAssertEqual("\(error)", "run \(run) is already undone")
            }
            // The same bytes ingest again without --force once their run is undone.
            XCTAssertEqual(
                ingest("sales_audit_wrong.csv", wrong, as: .salesAudit).counts,
                UpsertCounts(inserted: 1, updated: 2, unchanged: 1))
        }
    }

    func testRunDetailsListWhatARunChangedPerStoreAndKey() throws {
        try onEachBackend {
            ingest("sales_audit.csv", Self.sales, as: .salesAudit)
            let outcome = ingest(
                "sales_audit_b.csv",
                "Store,Date,Net Sales,Transactions,Items,CCP %\n08,2025-01-30,1000.50,10,20,40%\n08,2025-02-03,5,1,1,\n",
                as: .salesAudit)
            let run = try XCTUnwrap(outcome.runID)
            let details = try XCTUnwrap(try warehouse.runDetails(id: run, limit: 20))
            XCTAssertEqual(details.run.id, run)
            XCTAssertEqual(details.run.sheet, "sales_audit_b")
            XCTAssertFalse(details.run.historyPruned)
            XCTAssertEqual(
                details.stores,
                [
                    RunStoreCount(
                        store: "08", inserted: 1, updated: 1, unchanged: 0, firstDate: "2025-01-30",
                        lastDate: "2025-02-03")
                ])
            XCTAssertEqual(details.changedKeys, 1)
            XCTAssertEqual(
                details.changes,
                [
                    RunChange(
                        table: "store_report",
                        key: [
                            .init(name: "date", old: nil, new: "2025-01-30"),
                            .init(name: "store_code", old: nil, new: "08"),
                        ],
                        columns: [
                            .init(name: "total_sales_cents", old: "100000", new: "100050"),
                            .init(name: "ads_cents", old: "10000", new: "10005"),
                        ])
                ])
            XCTAssertNil(try warehouse.runDetails(id: 999, limit: 20))
        }
    }

    func testALaterRunThatChangedTheSameKeysHoldsThemWhenTheEarlierIsUndone() throws {
        try onEachBackend {
            ingest("sales_audit_a.csv", Self.sales, as: .salesAudit)
            let before = try snapshot()
            let second = try XCTUnwrap(
                ingest(
                    "sales_audit_b.csv",
                    "Store,Date,Net Sales,Transactions,Items\n08,2025-01-30,1.00,1,1\n08,2025-03-01,5,1,1\n",
                    as: .salesAudit
                ).runID)
            let third = try XCTUnwrap(
                ingest(
                    "sales_audit_c.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-03-01,6,1,1\n",
                    as: .salesAudit
                ).runID)
            let unrelated = try XCTUnwrap(
                ingest(
                    "sales_audit_d.csv", "Store,Date,Net Sales,Transactions,Items\n10,2025-04-01,6,1,1\n",
                    as: .salesAudit
                ).runID)
            XCTAssertEqual(try warehouse.undo(run: second, cascade: false).runs, [second])
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT date, total_sales_cents FROM store_report WHERE store_code = '08' ORDER BY date", columns: 2
                ),
                [["2025-01-30", "100000"], ["2025-01-31", "120000"], ["2025-03-01", "600"]],
                "the third run holds 03-01, which the second had inserted")
            XCTAssertEqual(
                try warehouse.integer(
                    "SELECT count(*) FROM store_report_history WHERE replaced_by_run = ?", ["\(third)"]), 0,
                "the third run is now the inserter of 03-01")
            try warehouse.undo(run: third, cascade: false)
            try warehouse.undo(run: unrelated, cascade: false)
            XCTAssertEqual(try snapshot(), before)
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    /// The audit's A/B/C (SPEC section 16): A writes 06-30; B changes it and adds 07-01; C
    /// re-sends 06-29..07-01 with B's values (06-30 twice). Undoing B keeps C's values, since C
    /// holds both keys; undoing C then leaves A's warehouse. In a CSV and in a workbook.
    func testUndoingARunKeepsTheKeysALaterRunReSentUnchanged() throws {
        let root = try XCTUnwrap(directory)
        defer { directory = root }
        for format in ["csv", "xlsx"] {
            // A warehouse of its own per format.
            directory = root.appendingPathComponent(format)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try onEachBackend {
                let header = ["Store", "Date", "Net Sales", "Transactions", "Items"]
                let a = try ingestRows(
                    "sales_audit_a.\(format)", header, [["08", "2025-06-30", "1000.00", "10", "20"]])
                let afterA = try snapshot()
                let b = try ingestRows(
                    "sales_audit_b.\(format)", header,
                    [["08", "2025-06-30", "1500.00", "10", "20"], ["08", "2025-07-01", "1100.00", "11", "21"]])
                let resend = [
                    ["08", "2025-06-29", "900.00", "9", "19"], ["08", "2025-06-30", "1500.00", "10", "20"],
                    ["08", "2025-07-01", "1100.00", "11", "21"], ["08", "2025-06-30", "1500.00", "10", "20"],
                ]
                let c = try ingestRows("sales_audit_c.\(format)", header, resend)
                XCTAssertEqual(c.counts, UpsertCounts(inserted: 1, updated: 0, unchanged: 3))
                let cRun = try XCTUnwrap(c.runID)
                XCTAssertEqual(
                    try warehouse.rows(
                        "SELECT store_code, inserted, updated, unchanged FROM ingest_run_store WHERE run_id = ?",
                        ["\(cRun)"], columns: 4),
                    [["08", "1", "0", "3"]])
                XCTAssertEqual(try warehouse.runDetails(id: cRun, limit: 20)?.changedKeys, 0)

                let bRun = try XCTUnwrap(b.runID)
                let undone = try warehouse.undo(run: bRun, cascade: false)
                XCTAssertEqual(undone.runs, [bRun])
                XCTAssertEqual(undone.deleted, 0)
                XCTAssertEqual(undone.restored, 0)
                XCTAssertEqual(
                    try warehouse.rows(
                        "SELECT date, total_sales_cents, ingest_run_id FROM store_report ORDER BY date", columns: 3),
                    [
                        ["2025-06-29", "90000", "\(cRun)"], ["2025-06-30", "150000", "\(cRun)"],
                        ["2025-07-01", "110000", "\(cRun)"],
                    ])
                XCTAssertEqual(try warehouse.checkRollups(), [])
                let undoRun = try XCTUnwrap(undone.undoRuns.first)
                XCTAssertEqual(
                    try warehouse.rows(
                        "SELECT feed, path, status, undoes_run FROM ingest_run WHERE id = ?", ["\(undoRun)"], columns: 4
                    ),
                    [["undo", nil, "ok", "\(bRun)"]])
                XCTAssertEqual(
                    try warehouse.rows(
                        """
                        SELECT date, total_sales_cents, ingest_run_id FROM store_report_history
                        WHERE replaced_by_run = ? ORDER BY date
                        """, ["\(undoRun)"], columns: 3),
                    [["2025-06-30", "150000", "\(bRun)"], ["2025-07-01", "110000", "\(bRun)"]],
                    "the undo keeps the values it took out of history")
                XCTAssertThrowsError(try warehouse.undo(run: undoRun, cascade: false)) { error in
                    XCTAssertEqual("\(error)", "run \(undoRun) is an undo: an undo cannot itself be undone")
                }

                try warehouse.undo(run: cRun, cascade: false)
                XCTAssertEqual(try snapshot(), afterA, "C's undo gives back A's 06-30, which B had replaced")
                XCTAssertEqual(
                    try warehouse.rows("SELECT ingest_run_id FROM store_report", columns: 1),
                    [["\(try XCTUnwrap(a.runID))"]])
            }
        }
    }

    /// `--cascade` undoes only what blocks: a forced re-ingest of B's file after C.
    func testCascadeUndoesTheSameFileIngestedAgainAndKeepsTheReSentKeys() throws {
        try onEachBackend {
            let header = ["Store", "Date", "Net Sales", "Transactions", "Items"]
            try ingestRows("sales_audit_a.csv", header, [["08", "2025-06-30", "1000.00", "10", "20"]])
            let bRows = [["08", "2025-06-30", "1500.00", "10", "20"], ["08", "2025-07-01", "1100.00", "11", "21"]]
            let b = try XCTUnwrap(try ingestRows("sales_audit_b.csv", header, bRows).runID)
            let c = try XCTUnwrap(
                try ingestRows("sales_audit_c.csv", header, [["08", "2025-07-01", "1100.00", "11", "21"]]).runID)
            let again = try XCTUnwrap(try ingestRows("sales_audit_b.csv", header, bRows, force: true).runID)
            XCTAssertThrowsError(try warehouse.undo(run: b, cascade: false)) { error in
                XCTAssertEqual((error as? UndoRefused)?.blockingRuns, [again])
            }
            XCTAssertEqual(try warehouse.undo(run: b, cascade: true).runs, [again, b])
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT date, total_sales_cents, ingest_run_id FROM store_report ORDER BY date", columns: 3),
                [["2025-06-30", "100000", "\(b - 1)"], ["2025-07-01", "110000", "\(c)"]])
            XCTAssertEqual(try warehouse.checkRollups(), [])
        }
    }

    /// A file that repeats a key: the per-store counts add up to the file's (the audit's N12).
    func testPerStoreCountsAddUpToTheFilesWhenAKeyRepeats() throws {
        try onEachBackend {
            let outcome = ingest(
                "sales_audit_rep.csv",
                "Store,Date,Net Sales,Transactions,Items\n08,2025-06-01,100.00,1,1\n08,2025-06-01,150.00,1,1\n"
                    + "08,2025-06-01,150.00,1,1\n10,2025-06-01,5,1,1\n",
                as: .salesAudit)
            XCTAssertEqual(outcome.counts, UpsertCounts(inserted: 2, updated: 1, unchanged: 1))
            XCTAssertEqual(
                try warehouse.rows(
                    "SELECT store_code, inserted, updated, unchanged FROM ingest_run_store WHERE run_id = ? ORDER BY store_code",
                    ["\(try XCTUnwrap(outcome.runID))"], columns: 4),
                [["08", "1", "1", "1"], ["10", "1", "0", "0"]])
        }
    }

    /// Writes `rows` under `header` as a CSV or a workbook (by the name's extension) and ingests it.
    @discardableResult
    private func ingestRows(_ name: String, _ header: [String], _ rows: [[String]], force: Bool = false) throws
        -> IngestOutcome
    {
        guard name.hasSuffix(".xlsx") else {
            let text = ([header] + rows).map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n"
            return ingest(name, text, as: .salesAudit, force: force)
        }
        let path = directory.appendingPathComponent(name).path
        let writer = try XLSXWriter(path: path)
        try writer.writeRow(header.map { .string($0) })
        for row in rows {
            // The store and the date stay text; the measures are numbers.
            try writer.writeRow(
                row.enumerated().map { index, text in
                    index < 2 ? .string(text) : Double(text).map(XLSXWriter.Value.number) ?? .string(text)
                })
        }
        try writer.close()
        let outcome = FileIngestor(
            warehouse: warehouse, feedOptions: FeedOptions(), explicitFeed: .salesAudit,
            options: IngestOptions(force: force)
        ).ingest(path)
        XCTAssertEqual(outcome.status, .ok, outcome.error ?? "")
        return outcome
    }

    func testAForcedReingestOfTheSameFileBlocksUndoingTheFirst() throws {
        try onEachBackend {
            let first = try XCTUnwrap(ingest("sales_audit.csv", Self.sales, as: .salesAudit).runID)
            let again = try XCTUnwrap(ingest("sales_audit.csv", Self.sales, as: .salesAudit, force: true).runID)
            XCTAssertThrowsError(try warehouse.undo(run: first, cascade: false)) { error in
                XCTAssertEqual((error as? UndoRefused)?.blockingRuns, [again])
            }
        }
    }

    func testUndoingAGoalsImportRestoresTheOldTargets() throws {
        try onEachBackend {
            ingest(
                "goals.csv", "period,scope,metric,target\n2025-01,global,totalSales,1000\n2025-01,08,upt,2\n",
                as: .goals)
            let before = try snapshot()
            let run = try XCTUnwrap(
                ingest(
                    "goals_2.csv", "period,scope,metric,target\n2025-01,global,totalSales,5000\n2025-02,08,upt,3\n",
                    as: .goals
                ).runID)
            XCTAssertEqual(try warehouse.goals(months: ["2025-01", "2025-02"]).map(\.target), [2, 5000, 3])
            try warehouse.undo(run: run, cascade: false)
            XCTAssertEqual(try snapshot(), before)
            XCTAssertEqual(try warehouse.goals(months: ["2025-01", "2025-02"]).map(\.target), [2, 1000])
        }
    }

    func testUndoingAStoresImportRestoresNamesAndAliasesButNeverDropsAStoreInUse() throws {
        try onEachBackend {
            let before = try snapshot()
            let run = try XCTUnwrap(
                ingest(
                    "stores_2.csv",
                    "code,name,region,aliases\n08,Natick Mall,North,\n10,Framingham,East,Shoppers World\n21,Warwick,South,\n",
                    as: .stores
                ).runID)
            XCTAssertEqual(try warehouse.storeDirectory().isEmpty, false)
            try warehouse.undo(run: run, cascade: false)
            XCTAssertEqual(try snapshot(), before)

            let again = try XCTUnwrap(ingest("stores_3.csv", "code,name,region\n21,Warwick,South\n", as: .stores).runID)
            ingest("sales_audit.csv", "Store,Date,Net Sales,Transactions,Items\n21,2025-01-30,1,1,1\n", as: .salesAudit)
            XCTAssertThrowsError(try warehouse.undo(run: again, cascade: false)) { error in
                XCTAssertTrue("\(error)".contains("it added store 21, which feed rows reference"), "\(error)")
            }
        }
    }

    /// A bad associate or merch file undone alone after the next nights' files re-stamped the
    /// same names (the audit's N7): the later files hold the names, which stay.
    func testAnAssociateOrMerchFileUndoneAloneAfterLaterNightsNamedTheSame() throws {
        try onEachBackend {
            let header = "Store #,Business Date,Emp #,Salesperson,Net Sales,Trans,Items Sold\n"
            let bad = try XCTUnwrap(
                ingest(
                    "Employee_day1.csv", header + "08,7/1/2025,0042,Ava Adams,10000.00,1,1\n", as: .employeePerformance
                )
                .runID)
            for day in 2...3 {
                ingest(
                    "Employee_day\(day).csv", header + "08,7/\(day)/2025,0042,Ava Adams,100.00,1,1\n",
                    as: .employeePerformance)
            }
            let vendors = "Store,Date,Vendor #,Vendor Name,Net Sales,Units Sold\n"
            let badMerch = try XCTUnwrap(
                ingest("Vendor_day1.csv", vendors + "08,2025-07-01,V100,Pandora,9999.00,1\n", as: .merchSales).runID)
            ingest("Vendor_day2.csv", vendors + "08,2025-07-02,V100,Pandora,100.00,1\n", as: .merchSales)

            XCTAssertEqual(try warehouse.undo(run: bad, cascade: false).runs, [bad])
            XCTAssertEqual(try warehouse.undo(run: badMerch, cascade: false).runs, [badMerch])
            XCTAssertEqual(try warehouse.employeeNames(), ["0042": "Ava Adams"])
            XCTAssertEqual(try warehouse.vendorNames().values.sorted(), ["Pandora"])
            XCTAssertEqual(
                try warehouse.rows("SELECT date FROM employee_report ORDER BY date", columns: 1),
                [["2025-07-02"], ["2025-07-03"]])
        }
    }

    func testAnAssociateFileUndoneLeavesTheNamesAsTheyWere() throws {
        try onEachBackend {
            ingest(
                "associates.csv",
                "Store,Date,Emp #,Employee,Net Sales,Trans,Items\n08,2025-01-30,42,Ava Adams,100,1,1\n",
                as: .employeePerformance)
            let before = try snapshot()
            let run = try XCTUnwrap(
                ingest(
                    "associates_2.csv",
                    "Store,Date,Emp #,Employee,Net Sales,Trans,Items\n08,2025-01-31,42,Ava Brown,100,1,1\n08,2025-01-31,7,Bo,5,1,1\n",
                    as: .employeePerformance
                ).runID)
            XCTAssertEqual(try warehouse.employeeNames(), ["42": "Ava Brown", "7": "Bo"])
            try warehouse.undo(run: run, cascade: false)
            XCTAssertEqual(try warehouse.employeeNames(), ["42": "Ava Adams"])
            XCTAssertEqual(try snapshot(), before)
        }
    }

    func testPrunedHistoryCannotBeUndone() throws {
        try onEachBackend {
            let run = try XCTUnwrap(ingest("sales_audit.csv", Self.sales, as: .salesAudit).runID)
            ingest(
                "sales_audit_b.csv", "Store,Date,Net Sales,Transactions,Items\n08,2025-01-30,1.00,1,1\n",
                as: .salesAudit)
            XCTAssertEqual(try warehouse.pruneHistory(before: CivilDate(year: 2999, month: 1, day: 1)), 1)
            XCTAssertEqual(try warehouse.integer("SELECT count(*) FROM store_report_history"), 0)
            XCTAssertThrowsError(try warehouse.undo(run: run, cascade: false)) { error in
                XCTAssertTrue("\(error)".contains("its history was pruned"), "\(error)")
            }
        }
    }
}
