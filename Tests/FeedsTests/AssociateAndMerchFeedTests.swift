import CivilCalendar
import Feeds
import SheetStream
import TestSupport
import XCTest

/// Feeds `employee-performance` and `merch-sales` (SPEC sections 9 and 10): detection, aliases,
/// normalisers and mapping.
final class AssociateAndMerchFeedTests: XCTestCase {
    private var folder: URL!
    private let directory = StoreDirectory(stores: [
        StoreRecord(code: "08", name: "Natick", region: "East", aliases: ["Natick Mall"]),
        StoreRecord(code: "10", name: "Framingham", region: "East"),
    ])

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    private func open(_ name: String, _ text: String) throws -> SpreadsheetFile {
        try SpreadsheetFile.open(path: try TestPaths.write(Array(text.utf8), named: name, in: folder))
    }

    private func read(_ file: SpreadsheetFile, as feed: FeedID) throws -> (FeedReadResult, [FeedRecord]) {
        let reader = FeedFileReader(
            definition: FeedCatalog.definition(feed), directory: directory, options: FeedOptions())
        var records: [FeedRecord] = []
        let result = try reader.read(file) { records.append($0) }
        return (result, records)
    }

    /// The known defect: a salesperson report holds every sales-audit field, and must never be read as one.
    func testAssociateFilesAreNeverTakenForSalesAudit() throws {
        let detector = FeedDetector(options: FeedOptions())
        let header = "Store,Date,Employee #,Employee,Net Sales,Transactions,Items\n08,2025-07-01,42,Ava,100,1,1\n"
        for name in ["daily_export.csv", "salesperson_0701.csv", "sales_by_associate.csv", "pos_report.csv"] {
            XCTAssertEqual(try detector.detect(try open(name, header), explicit: nil), .employeePerformance, name)
        }
        let merch = "Title\nStore,Date,Vendor,Net Sales,Units\n08,2025-07-01,Pandora,100,1\n"
        XCTAssertEqual(try detector.detect(try open("export_2.csv", merch), explicit: nil), .merchSales)
        XCTAssertEqual(
            try detector.detect(try open("category_july.csv", "Store,Date,Dept,Sales,Qty\n"), explicit: nil),
            .merchSales)
        let sales = "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,100,1,1\n"
        XCTAssertEqual(try detector.detect(try open("nightly.csv", sales), explicit: nil), .salesAudit)
        XCTAssertEqual(detector.feed(forFileName: "in/Vendor Sales July.xlsx"), .merchSales)
        XCTAssertEqual(detector.feed(forFileName: "associate_sales.csv"), .employeePerformance)
    }

    /// Issue 20, defect 1: an associate file saved under a sales-audit name overwrote store
    /// sales. The associate and merch header signatures win over file-name tokens (SPEC section 3).
    func testAnAssociateFileNamedLikeASalesAuditIsReadAsAssociates() throws {
        let detector = FeedDetector(options: FeedOptions())
        let associates = "Store,Date,Emp #,Employee,Net Sales,Transactions,Items\n08,2025-07-01,42,Ava,100,1,1\n"
        for name in ["Daily_Sales_Audit_Store.csv", "sales-audit_2025.csv", "credit_0701.csv"] {
            XCTAssertEqual(try detector.detect(try open(name, associates), explicit: nil), .employeePerformance, name)
        }
        let merch = "Store,Date,Vendor,Net Sales,Units\n08,2025-07-01,Pandora,100,1\n"
        XCTAssertEqual(try detector.detect(try open("sales_audit_vendors.csv", merch), explicit: nil), .merchSales)
        // The name still decides for its own feed's headers, and --feed over everything.
        let sales = "Store,Date,Net Sales,Transactions,Items\n08,2025-07-01,100,1,1\n"
        XCTAssertEqual(try detector.detect(try open("Daily_Sales_Audit.csv", sales), explicit: nil), .salesAudit)
        XCTAssertEqual(try detector.detect(try open("sales_audit.csv", associates), explicit: .salesAudit), .salesAudit)
        XCTAssertEqual(
            try detector.detect(try open("credit_0701.csv", "Store,Date\n08,2025-07-01\n"), explicit: nil), .creditApps)
    }

    func testEveryAliasOfTheSpecMapsToItsField() {
        let employees = FeedCatalog.definition(.employeePerformance)
        for alias in ["Employee ID", "Emp ID", "Emp #", "Employee #", "Associate ID", "Salesperson ID", "Clerk #"] {
            XCTAssertEqual(employees.field(forHeader: alias), .employeeId, alias)
        }
        for alias in ["Employee", "Employee Name", "Associate", "Salesperson", "Sales Associate", "Clerk"] {
            XCTAssertEqual(employees.field(forHeader: alias), .employeeName, alias)
        }
        for alias in ["Period", "Month"] { XCTAssertEqual(employees.field(forHeader: alias), .period, alias) }
        let merch = FeedCatalog.definition(.merchSales)
        for alias in ["Vendor", "Vendor Name", "Brand", "Designer", "Supplier"] {
            XCTAssertEqual(merch.field(forHeader: alias), .vendor, alias)
        }
        for alias in ["Category", "Dept", "Department", "Class", "Product Category"] {
            XCTAssertEqual(merch.field(forHeader: alias), .category, alias)
        }
        for alias in ["Vendor ID", "Vendor #"] { XCTAssertEqual(merch.field(forHeader: alias), .vendorId, alias) }
    }

    func testMonthsIdentifiersAndKeys() {
        let parser = DateText()
        let july = CivilDate(year: 2025, month: 7, day: 1)
        for text in ["2025-07", "Jul 2025", "July 2025", "7/2025", "07/2025", "Jul-2025", "2025-07-15"] {
            XCTAssertEqual(
                try ValueNormalizer.month(.string(text), parser: parser, dateSystem: .date1900).get(), july, text)
        }
        XCTAssertEqual(
            try ValueNormalizer.month(.number(45_853), parser: parser, dateSystem: .date1900).get(), july,
            "a date serial's month")
        XCTAssertEqual(
            ValueNormalizer.month(.string("13/2025"), parser: parser, dateSystem: .date1900),
            .failure(.invalid("is not a month (expected YYYY-MM, Jul 2025 or 7/2025)")))
        XCTAssertEqual(try ValueNormalizer.identifier(.number(42)).get(), "42", "never 42.0")
        XCTAssertEqual(try ValueNormalizer.identifier(.string(" 0042 ")).get(), "0042")
        XCTAssertEqual(try ValueNormalizer.key(.string("  Alex   and\u{A0}Ani ")).get(), "Alex and Ani")
    }

    func testAssociateRowsByDayOrMonthAndTheLatestName() throws {
        let file = try open(
            "employees.csv",
            """
            Store #,Business Date,Month,Emp #,Salesperson,Net Sales,Trans,Items Sold,CCP %,GP %
            08,7/2/2025,,42,Ava  Adams,"$1,234.56",3,4,45.2%,0.5
            Natick Mall,,Jul 2025,42,Ava Smith,"(10.00)",1,1,,
            08,7/1/2025,,42,Ava Old,1,1,1,,
            """)
        let (result, records) = try read(file, as: .employeePerformance)
        XCTAssertEqual(result.rejected, 0)
        XCTAssertEqual(
            records,
            [
                .employeeSales(
                    EmployeeSalesRecord(
                        employeeId: "42", store: "08", grain: .day(CivilDate(year: 2025, month: 7, day: 2)),
                        figures: SalesFigures(
                            totalSalesCents: 123_456, totalTransactions: 3, totalItems: 4, ccpPctMillionths: 452_000,
                            gpPctMillionths: 500_000))),
                .employeeSales(
                    EmployeeSalesRecord(
                        employeeId: "42", store: "08", grain: .month(CivilDate(year: 2025, month: 7, day: 1)),
                        figures: SalesFigures(
                            totalSalesCents: -1000, totalTransactions: 1, totalItems: 1, ccpPctMillionths: nil,
                            gpPctMillionths: nil))),
                .employeeSales(
                    EmployeeSalesRecord(
                        employeeId: "42", store: "08", grain: .day(CivilDate(year: 2025, month: 7, day: 1)),
                        figures: SalesFigures(
                            totalSalesCents: 100, totalTransactions: 1, totalItems: 1, ccpPctMillionths: nil,
                            gpPctMillionths: nil))),
                .employeeName(
                    EmployeeNameRecord(
                        employeeId: "42", name: "Ava Smith", asOf: CivilDate(year: 2025, month: 7, day: 31))),
            ])
    }

    func testMerchRowsKeyByVendorIdElseNameAndNeedADimension() throws {
        let file = try open(
            "vendor.csv",
            """
            Store;Date;Vendor #;Vendor Name;Category;Net Sales;Units
            08;2025-07-01;V17;Pandora;Fashion;100;2
            08;2025-07-01;;Alex   and Ani;;50.5;1
            08;2025-07-01;;;;9;1
            """)
        let (result, records) = try read(file, as: .merchSales)
        XCTAssertEqual(
            records,
            [
                .merchSales(
                    MerchSalesRecord(
                        store: "08", grain: .day(CivilDate(year: 2025, month: 7, day: 1)), vendorKey: "V17",
                        vendorName: "Pandora",
                        category: "Fashion", totalSalesCents: 10_000, totalItems: 2)),
                .merchSales(
                    MerchSalesRecord(
                        store: "08", grain: .day(CivilDate(year: 2025, month: 7, day: 1)), vendorKey: "Alex and Ani",
                        vendorName: "Alex and Ani", category: "", totalSalesCents: 5050, totalItems: 1)),
                // Each vendor's latest name, after the rows (SPEC section 10).
                .vendorName(VendorNameRecord(vendorKey: "Alex and Ani", name: "Alex and Ani", asOf: "2025-07-01")),
                .vendorName(VendorNameRecord(vendorKey: "V17", name: "Pandora", asOf: "2025-07-01")),
            ])
        XCTAssertEqual(result.rejects.map(\.reason), ["has neither a vendor nor a category"])
    }
}
