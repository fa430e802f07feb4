import CivilCalendar
import Feeds
import Foundation
import SheetStream
import TestSupport
import XCTest

final class FeedReadingTests: XCTestCase {
    private let directory = StoreDirectory(stores: [
        StoreRecord(
            code: "08", name: "Natick", region: "East", aliases: ["Hannoush Jewelers - Natick", "Natick Mall"]),
        StoreRecord(code: "10", name: "Framingham", region: "East"),
    ])

    private func read(_ fixture: String, as feed: FeedID, options: FeedOptions = FeedOptions()) throws
        -> (FeedReadResult, [FeedRecord])
    {
        let file = try SpreadsheetFile.open(path: TestPaths.fixture("feeds/\(fixture)"))
        let reader = FeedFileReader(definition: options.definition(feed), directory: directory, options: options)
        var records: [FeedRecord] = []
        let result = try reader.read(file) { records.append($0) }
        return (result, records)
    }

    private func day(_ d: Int) -> CivilDate { CivilDate(year: 2025, month: 7, day: d) }

    /// A total label with a zero-width space in it ("Grand To\u{200B}tal", which cleaning
    /// reads as "Grand Total") is a total row, skipped, not a reject.
    func testATotalLabelWithAZeroWidthSpaceIsSkipped() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = "Store,Date,Net Sales,Transactions,Items\n08,2025-07-14,100,2,3\nGrand To\u{200B}tal,,100,2,3\n"
        let path = try TestPaths.write(Array(csv.utf8), named: "sales_audit.csv", in: folder)
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(.salesAudit), directory: directory, options: FeedOptions())
        let result = try reader.read(try SpreadsheetFile.open(path: path)) { _ in }
        XCTAssertEqual(result.skipped, 1, "\(result.rejects.map(\.reason))")
        XCTAssertEqual(result.rejected, 0)
    }

    /// A header repeated mid-file is skipped when a config alias holds no letter too ("2025"
    /// for the sales column): the quick test that tells data cells from names by their letters
    /// applies only when every name has one. The same file with a lettered alias, as before.
    func testAHeaderRepeatedWithALetterlessConfigAliasIsSkipped() throws {
        for alias in ["2025", "Y2025"] {
            let folder = try TestPaths.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: folder) }
            let header = "Store,Date,\(alias),Transactions,Items\n"
            let path = try TestPaths.write(
                Array((header + "08,2025-07-14,100,2,3\n" + header + "08,2025-07-15,100,2,3\n").utf8),
                named: "sales_audit.csv", in: folder)
            let options = FeedOptions(extraAliases: [.salesAudit: [.totalSales: [alias]]])
            let reader = FeedFileReader(
                definition: options.definition(.salesAudit), directory: directory, options: options)
            var records: [FeedRecord] = []
            let result = try reader.read(try SpreadsheetFile.open(path: path)) { records.append($0) }
            XCTAssertEqual(result.skipped, 1, "\(alias): \(result.rejects.map(\.reason))")
            XCTAssertEqual(result.rejected, 0, "\(alias)")
            XCTAssertEqual(records.count, 2, "\(alias)")
        }
    }

    func testSalesAuditMappingSkipsAndRejects() throws {
        let (result, records) = try read("sales_audit_small.csv", as: .salesAudit)
        XCTAssertEqual(result.headerRow, 4)
        XCTAssertEqual(result.read, 8)
        XCTAssertEqual(result.skipped, 2, "the total row and the repeated header")
        XCTAssertEqual(result.rejected, 2)
        XCTAssertEqual(
            records,
            [
                .salesAudit(
                    SalesAuditRecord(
                        store: "08", date: day(14),
                        figures: SalesFigures(
                            totalSalesCents: 123_450, totalTransactions: 10, totalItems: 25, ccpPctMillionths: 452_000,
                            gpPctMillionths: 510_000))),
                .salesAudit(
                    SalesAuditRecord(
                        store: "10", date: day(14),
                        figures: SalesFigures(
                            totalSalesCents: -2000, totalTransactions: 1, totalItems: 1, ccpPctMillionths: 500_000,
                            gpPctMillionths: 500_000))),
                .salesAudit(
                    SalesAuditRecord(
                        store: "08", date: day(15),
                        figures: SalesFigures(
                            totalSalesCents: 10_000, totalTransactions: 4, totalItems: 4, ccpPctMillionths: nil,
                            gpPctMillionths: nil))),
                .salesAudit(
                    SalesAuditRecord(
                        store: "08", date: day(16),
                        figures: SalesFigures(
                            totalSalesCents: 5000, totalTransactions: 2, totalItems: 3, ccpPctMillionths: 400_000,
                            gpPctMillionths: 450_000))),
            ])
        XCTAssertEqual(
            result.rejects.map(\.description),
            [
                "sales_audit_small.csv!sales_audit_small row 11, column A (Store #): \"99\" is not a known store code (99)",
                "sales_audit_small.csv!sales_audit_small row 12, column C (Net Sales): \"12.3x4\" is not a number",
            ])
        XCTAssertEqual(result.warnings.count, 1, "UPT 9 given where 4/4 = 1 is recomputed; ADS within 1%")
        XCTAssertTrue(
            result.warnings[0].contains("row 7: given UPT 9 is more than 1% off the recomputed 1"), result.warnings[0])
    }

    /// SPEC section 26: without a transactions or items column a sales-audit row leaves them
    /// unknown (`nil`, never 0); with the column, an empty cell is a reject naming it.
    func testASalesAuditWithoutItemsLeavesThemUnknownAndAnEmptyCellOfAColumnIsAReject() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let reader = FeedFileReader(
            definition: FeedOptions(extraAliases: [.salesAudit: [.totalTransactions: ["Customers"]]]).definition(
                .salesAudit), directory: directory, options: FeedOptions())
        let pos = try TestPaths.write(
            Array("Store,Date,Sales,Customers\n8,2025-07-14,5263,555\n".utf8), named: "pos.csv", in: folder)
        var records: [FeedRecord] = []
        let result = try reader.read(try SpreadsheetFile.open(path: pos)) { records.append($0) }
        XCTAssertEqual(result.rejected, 0, "\(result.rejects.map(\.reason))")
        XCTAssertEqual(
            records,
            [
                .salesAudit(
                    SalesAuditRecord(
                        store: "08", date: day(14),
                        figures: SalesFigures(totalSalesCents: 526_300, totalTransactions: 555, totalItems: nil)))
            ])
        guard case .salesAudit(let record) = records.first else { return XCTFail("no record") }
        XCTAssertNil(record.figures.upt)
        XCTAssertEqual(record.figures.adsCents, 948)

        let gap = try TestPaths.write(
            Array("Store,Date,Sales,Customers,Items\n8,2025-07-14,5263,555,\n".utf8), named: "gap.csv", in: folder)
        let rejected = try reader.read(try SpreadsheetFile.open(path: gap)) { _ in XCTFail("no record") }
        XCTAssertEqual(rejected.rejected, 1)
        XCTAssertEqual(rejected.rejects.first?.column, "E")
        XCTAssertEqual(rejected.rejects.first?.header, "Items")
    }

    func testCreditApplicationsAreCountedPerStoreAndDay() throws {
        let (result, records) = try read("credit_small.csv", as: .creditApps)
        XCTAssertEqual(result.read, 3)
        XCTAssertEqual(
            records,
            [
                .dailyCount(DailyCountRecord(store: "08", date: day(14), count: 2)),
                .dailyCount(DailyCountRecord(store: "10", date: day(15), count: 1)),
            ])
    }

    func testCRMIntakesResolveCompanyNamesAndRejectUnknownOnes() throws {
        let (result, records) = try read("crm_intakes_small.csv", as: .crmIntakes)
        XCTAssertEqual(
            records,
            [
                .dailyCount(DailyCountRecord(store: "08", date: day(14), count: 1)),
                .dailyCount(DailyCountRecord(store: "10", date: day(14), count: 1)),
            ])
        XCTAssertEqual(result.rejects.first?.reason, "is not a known store name or alias")
        XCTAssertEqual(result.rejects.first?.column, "A")
    }

    func testReviewsPerReviewAggregateToWeeksWithDailyCounts() throws {
        let (_, records) = try read("birdeye_reviews_small.csv", as: .birdeyeReviews)
        XCTAssertEqual(
            records,
            [
                .weeklyCount(
                    WeeklyCountRecord(store: "08", weekStart: day(14), total: 2, dailyCounts: [1, 0, 0, 0, 0, 0, 1])),
                .weeklyCount(
                    WeeklyCountRecord(store: "10", weekStart: day(21), total: 1, dailyCounts: [1, 0, 0, 0, 0, 0, 0])),
            ])
    }

    func testWeeklyReviewSummariesNormaliseTheWeekStart() throws {
        let (_, records) = try read("birdeye_weekly_small.csv", as: .birdeyeReviews)
        XCTAssertEqual(
            records, [.weeklyCount(WeeklyCountRecord(store: "08", weekStart: day(14), total: 7, dailyCounts: nil))])
    }

    func testCallsFromWeekdayColumnsAndFromACallLog() throws {
        let (_, weekly) = try read("calls_weekly_small.csv", as: .outboundCalls)
        XCTAssertEqual(
            weekly,
            [
                .weeklyCount(
                    WeeklyCountRecord(store: "08", weekStart: day(14), total: 28, dailyCounts: [1, 2, 3, 4, 5, 6, 7])),
                // "Week Starting" 2025-07-16 (a Wednesday) is the week of Monday 07-14: its Monday column
                // is 07-14 and its Sunday 07-20 (SPEC section 4); no count moves to another week.
                .weeklyCount(
                    WeeklyCountRecord(store: "10", weekStart: day(14), total: 3, dailyCounts: [1, 0, 0, 0, 0, 0, 2])),
            ])
        let (_, log) = try read("calls_log_small.csv", as: .outboundCalls)
        XCTAssertEqual(
            log,
            [
                .weeklyCount(
                    WeeklyCountRecord(store: "08", weekStart: day(14), total: 2, dailyCounts: [1, 0, 0, 0, 0, 0, 1]))
            ])
    }

    func testSundayWeeksFromConfiguration() throws {
        let (_, records) = try read(
            "birdeye_reviews_small.csv", as: .birdeyeReviews, options: FeedOptions(weekStart: 6))
        XCTAssertEqual(
            records.first,
            .weeklyCount(
                WeeklyCountRecord(store: "08", weekStart: day(13), total: 1, dailyCounts: [0, 1, 0, 0, 0, 0, 0])))
    }

    func testTextOver4KiBIsARejectAndRejectsShowOnlyTheStartOfAValue() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let long = String(repeating: "x", count: 5000)
        let path = try TestPaths.write(
            Array("Code,Name,Region\n08,Natick,East\n10,\(long),East\n".utf8), named: "stores.csv", in: folder)
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(.stores), directory: directory, options: FeedOptions())
        var records: [FeedRecord] = []
        let result = try reader.read(try SpreadsheetFile.open(path: path)) { records.append($0) }
        XCTAssertEqual(records.count, 1)
        XCTAssertEqual(result.rejected, 1)
        let reject = try XCTUnwrap(result.rejects.first)
        XCTAssertEqual(reject.reason, "is 5000 bytes long; a field holds at most 4096")
        XCTAssertEqual(reject.column, "B")
        XCTAssertEqual(reject.value, String(repeating: "x", count: 200) + "…")
    }

    /// Issue 20: feeds read worksheets only; a chart sheet listed first is passed over.
    func testAChartSheetListedFirstIsPassedOver() throws {
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(.stores), directory: directory, options: FeedOptions())
        var records: [FeedRecord] = []
        let result = try reader.read(try SpreadsheetFile.open(path: TestPaths.fixture("chartsheet_first.xlsx"))) {
            records.append($0)
        }
        XCTAssertEqual(result.sheet, "Data")
        XCTAssertEqual(records, [.store(StoreRecord(code: "08", name: "Natick", region: "East"))])
    }

    /// A directory needs only codes (SPEC section 26); a status other than active or closed is
    /// refused, naming both.
    func testADirectoryOfCodesAloneAndItsStatusesNamed() throws {
        let folder = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = FeedOptions()
        let reader = FeedFileReader(
            definition: options.definition(.stores), directory: StoreDirectory(stores: []), options: options)
        var records: [FeedRecord] = []
        let codes = try TestPaths.write(Array("Code\n8\n10\n".utf8), named: "stores.csv", in: folder)
        _ = try reader.read(try SpreadsheetFile.open(path: codes)) { records.append($0) }
        XCTAssertEqual(
            records,
            [
                .store(StoreRecord(code: "08", name: "", region: nil)),
                .store(StoreRecord(code: "10", name: "", region: nil)),
            ])
        XCTAssertEqual(StoreRecord(code: "08", name: "", region: nil).title, "08")
        XCTAssertEqual(StoreRecord(code: "08", name: "Natick", region: "East").title, "08 Natick (East)")

        let statuses = try TestPaths.write(
            Array("Code,Status\n08,Closed\n10,open\n".utf8), named: "statuses.csv", in: folder)
        records = []
        let result = try reader.read(try SpreadsheetFile.open(path: statuses)) { records.append($0) }
        XCTAssertEqual(records, [.store(StoreRecord(code: "08", name: "", region: nil, status: "closed"))])
        XCTAssertEqual(result.rejects.map(\.reason), ["is not a store status (expected active or closed)"])
        XCTAssertEqual(result.rejects.first?.value, "open")
    }

    func testStoresAndGoals() throws {
        let (_, stores) = try read("stores_small.csv", as: .stores)
        XCTAssertEqual(
            stores.first,
            .store(
                StoreRecord(
                    code: "08", name: "Natick", region: "East", aliases: ["Hannoush Jewelers - Natick", "Natick Mall"]))
        )
        let (result, goals) = try read("goals_small.csv", as: .goals)
        XCTAssertEqual(
            goals,
            [
                .goal(GoalRecord(period: "2025-07", scope: "global", metric: "totalSales", target: 100_000, date: nil)),
                .goal(GoalRecord(period: "2025-07", scope: "08", metric: "totalSales", target: 150_000, date: nil)),
                .goal(GoalRecord(period: "2025-07", scope: "08", metric: "totalSales", target: 5000, date: day(14))),
            ])
        XCTAssertEqual(result.rejected, 2)
        XCTAssertTrue(result.rejects[0].reason.hasPrefix("is not a metric"))
    }

    func testExtraAliasesFromConfiguration() throws {
        let options = FeedOptions(extraAliases: [.creditApps: [.date: ["Submitted On"]]])
        XCTAssertEqual(options.definition(.creditApps).field(forHeader: "SUBMITTED_ON"), .date)
    }

    func testMissingHeaderIsAnErrorNamingTheHeadersSeen() throws {
        XCTAssertThrowsError(try read("credit_small.csv", as: .salesAudit)) { error in
            XCTAssertTrue("\(error)".contains("no sales-audit header row in the first 30 rows"), "\(error)")
            XCTAssertTrue(
                "\(error)".contains(
                    "row 1 of credit_small comes closest (headers seen: Store Code, Application Date, Applicant Name): missing totalSales (built-in names: \"Net Sales\", \"Total Sales\", \"Sales\", \"Net Sales $\"; add [aliases.sales-audit] totalSales = [\"…\"])"
                ), "\(error)")
        }
    }

    func testForALogTheMissingHeaderErrorCountsTheColumnsItSawButNeverQuotesThem() throws {
        XCTAssertThrowsError(
            try read("credit_small.csv", as: .salesAudit, options: FeedOptions(errorsQuoteCells: false))
        ) { error in
            XCTAssertTrue("\(error)".contains("no sales-audit header row in the first 30 rows"), "\(error)")
            XCTAssertTrue(
                "\(error)".contains("; row 1 of credit_small comes closest (a row of 3 columns): missing totalSales"),
                "\(error)")
            XCTAssertFalse("\(error)".contains("Applicant"), "\(error)")
        }
    }

    func testRaggedCSVRowsAreRejects() throws {
        let directoryURL = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directoryURL) }
        let path = try TestPaths.write(
            Array("Store,Date\n08,2025-07-14\n08,2025-07-15,extra\n".utf8), named: "credit.csv", in: directoryURL)
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(.creditApps), directory: directory, options: FeedOptions())
        let result = try reader.read(try SpreadsheetFile.open(path: path)) { _ in }
        XCTAssertEqual(result.rejects.map(\.reason), ["has 3 fields, but the header row has 2"])
        XCTAssertEqual(result.rejects.first?.row, 3)
    }
}

final class FeedDetectorTests: XCTestCase {
    private func detect(
        _ name: String, _ content: String, explicit: FeedID? = nil, options: FeedOptions = FeedOptions()
    ) throws -> FeedID {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TestPaths.write(Array(content.utf8), named: name, in: directory)
        return try FeedDetector(options: options).detect(try SpreadsheetFile.open(path: path), explicit: explicit)
    }

    func testExplicitThenFileNameThenHeaders() throws {
        XCTAssertEqual(try detect("Credit_0715.csv", "Store,Date\n", explicit: .crmIntakes), .crmIntakes)
        XCTAssertEqual(try detect("DAILY_SALES-AUDIT.csv", "x\n"), .salesAudit)
        XCTAssertEqual(try detect("credit_0715.csv", "Store,Date\n"), .creditApps)
        XCTAssertEqual(try detect("birdeye.csv", "x\n"), .birdeyeReviews)
        XCTAssertEqual(try detect("intake.csv", "x\n"), .crmIntakes)
        XCTAssertEqual(try detect("calls.csv", "x\n"), .outboundCalls)
        XCTAssertEqual(try detect("export1.csv", "Title\nStore,Date,Net Sales,Transactions,Items\n"), .salesAudit)
        XCTAssertEqual(try detect("export2.csv", "Location,Review Date,Rating\n"), .birdeyeReviews)
        XCTAssertEqual(try detect("export3.csv", "Store,Week Of,Mon,Tue\n"), .outboundCalls)
        XCTAssertEqual(try detect("export4.csv", "Store,Application Date\n"), .creditApps)
    }

    func testAmbiguousOrUnknownFilesAreErrorsNeverGuesses() {
        XCTAssertThrowsError(try detect("export.csv", "Store,Date,Amount\n08,2025-07-14,3\n")) { error in
            XCTAssertTrue(
                "\(error)".contains("cannot tell which feed this is; headers seen: Store, Date, Amount"), "\(error)")
            XCTAssertTrue("\(error)".contains("--feed"), "\(error)")
        }
    }

    func testForALogAnUndetectableFileWithoutHeadersIsDescribedByItsColumnCount() {
        let options = FeedOptions(errorsQuoteCells: false)
        XCTAssertThrowsError(try detect("export.csv", "Yara Patel,yara@example.com,,3\n", options: options)) { error in
            XCTAssertTrue(
                "\(error)".hasPrefix(
                    "export.csv: cannot tell which feed this is; saw a row of 4 columns. Name it with --feed ("),
                "\(error)")
            XCTAssertFalse("\(error)".contains("Yara") || "\(error)".contains("example.com"), "\(error)")
        }
        XCTAssertThrowsError(try detect("export.csv", "x\n", options: options)) { error in
            XCTAssertTrue("\(error)".contains("; saw no row of two or more columns."), "\(error)")
        }
    }
}
