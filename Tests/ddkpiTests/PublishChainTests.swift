import CivilCalendar
import Foundation
import TestSupport
import XCTest

/// `ddkpi publish` on a 40-store synthetic chain in four regions, with associates, vendors and
/// categories: 44 packs (a store each, a region each), not one value of a store outside its pack.
final class PublishChainTests: XCTestCase {
    /// `01 Town01 (North)` … `40 Town40 (West)`: names no other name contains.
    private static let stores = (1...40).map { number in
        (
            code: String(format: "%02d", number), name: String(format: "Town%02d", number),
            region: ["North", "South", "East", "West"][number % 4]
        )
    }

    /// Each store's associates: ids no other store shares (`E0101`…).
    private static func associates(_ code: String) -> [(id: String, name: String)] {
        (1...3).map { ("E\(code)0\($0)", "Clerk\(code)x\($0)") }
    }

    /// Each store's own vendor, sold nowhere else: its lines in another pack would be a leak.
    private static func localVendor(_ code: String) -> (key: String, name: String) { ("L\(code)", "Local\(code)") }

    /// What no pack outside `stores` may show: their names, associates and own vendors.
    private static func forbidden(_ stores: [(code: String, name: String, region: String)]) -> [String] {
        stores.map(\.name) + stores.flatMap { Self.associates($0.code).map(\.id) }
            + stores.map { localVendor($0.code).name }
            + ["All stores"]
    }

    func testFortyFourPacksHoldOnlyTheirOwnStores() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("chain.sqlite").path
        let feeds = directory.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        try writeChain(to: directory.path, feeds: feeds.path)
        for arguments in [
            ["stores", "import", directory.appendingPathComponent("stores.csv").path],
            ["goals", "import", directory.appendingPathComponent("goals.csv").path], ["ingest", feeds.path],
        ] {
            let result = try CommandRunner.ddkpi(["--db", database] + arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stdout) \(result.stderr)")
        }

        var plan = ""
        let reports = "reports = [\"review\", \"kpi\", \"employees\", \"merch-vendor\", \"merch-category\"]"
        for store in Self.stores {
            plan +=
                "[[pack]]\nname = \"\(store.code)\"\nstores = [\"\(store.code)\"]\n\(reports)\nformats = [\"html\", \"xlsx\"]\n\n"
        }
        for region in ["North", "South", "East", "West"] {
            plan +=
                "[[pack]]\nname = \"\(region)\"\nregion = \"\(region)\"\n\(reports)\nformats = [\"html\", \"xlsx\"]\n\n"
        }
        let planPath = directory.appendingPathComponent("plan.toml").path
        try plan.write(toFile: planPath, atomically: true, encoding: .utf8)
        let out = directory.appendingPathComponent("packs").path
        let result = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", planPath, "--out", out, "--quarter", "2025Q2",
        ])
        // The chain sends no credit applications, reviews, intakes or calls: late data, exit 4.
        XCTAssertEqual(result.status, 4, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 44)

        var scanned = 0
        for store in Self.stores {
            let others = Self.stores.filter { $0.code != store.code }
            try PackScanner.assertNone(of: Self.forbidden(others), inPack: "\(out)/\(store.code)", scanned: &scanned)
        }
        for region in ["North", "South", "East", "West"] {
            let others = Self.stores.filter { $0.region != region }
            try PackScanner.assertNone(
                of: Self.forbidden(others)
                    + ["North", "South", "East", "West"].filter { $0 != region }.map { "Region \($0)" },
                inPack: "\(out)/\(region)", scanned: &scanned)
        }
        XCTAssertEqual(scanned, 44 * 10)
        let page = try String(contentsOfFile: "\(out)/07/review-2025Q2.html", encoding: .utf8)
        XCTAssertTrue(page.contains("<p class=\"banner\" role=\"alert\">Data late: credit-apps missing;"), "the banner")
        XCTAssertTrue(page.contains("Town07"))
        // The scan sees what a pack does hold: its own associates, in the page and the workbook.
        for file in ["employees-2025-06-30-QTD.html", "employees-2025-06-30-QTD.xlsx"] {
            XCTAssertTrue(try PackScanner.text(of: "\(out)/07/\(file)").contains("E0701"), file)
        }
        XCTAssertTrue(try PackScanner.text(of: "\(out)/West/merch-vendor-2025Q2.xlsx").contains("Region West"))
        XCTAssertTrue(
            try PackScanner.text(of: "\(out)/07/merch-vendor-2025Q2.html").contains("Local07"), "its own vendor")
        let manifest = try String(contentsOfFile: "\(out)/North/manifest.json", encoding: .utf8)
        XCTAssertTrue(manifest.contains("\"scope\":\"region:North\""))
        XCTAssertTrue(
            manifest.contains(
                "{\"feed\":\"credit-apps\",\"scope\":\"ALL\",\"lastDate\":null,\"daysSince\":null,\"verdict\":\"missing\"}"
            ), manifest)
    }

    /// The chain's reference files and a quarter of daily sales, associates and categories, and
    /// monthly vendors, as CSV.
    private func writeChain(to folder: String, feeds: String) throws {
        var stores = "code,name,region\n"
        for store in Self.stores { stores += "\(store.code),\(store.name),\(store.region)\n" }
        var goals = "period,scope,metric,target\n"
        for month in ["2025-04", "2025-05", "2025-06"] { goals += "\(month),global,totalSales,120000\n" }
        var sales = "Store,Date,Net Sales,Transactions,Items,CCP %,GP %\n"
        var associates = "Store #,Business Date,Emp #,Salesperson,Net Sales,Trans,Items Sold,CCP %,GP %\n"
        var categories = "Location,Sales Date,Department,Net Sales,Qty\n"
        var vendors = "Store,Period,Vendor #,Vendor Name,Net Sales,Units Sold\n"
        var day = CivilDate(year: 2025, month: 4, day: 1)
        while day <= CivilDate(year: 2025, month: 6, day: 30) {
            for (index, store) in Self.stores.enumerated() {
                let transactions = 10 + (index * 7 + day.day) % 20
                sales +=
                    "\(store.code),\(day.iso8601),\(transactions * 330),\(transactions),\(transactions * 3 / 2),0.42,0.52\n"
                for (offset, clerk) in Self.associates(store.code).enumerated() {
                    let share = transactions / 3 + (offset == 0 ? transactions % 3 : 0)
                    associates +=
                        "\(store.code),\(day.iso8601),\(clerk.id),\(clerk.name),\(share * 330),\(share),\(share * 3 / 2),0.42,0.52\n"
                }
                for (offset, department) in ["Bridal", "Fashion", "Watches"].enumerated() {
                    categories +=
                        "\(store.code),\(day.iso8601),\(department),\(transactions * 110 + offset),\(transactions / 2)\n"
                }
            }
            day = day.adding(days: 1)
        }
        for month in ["2025-04", "2025-05", "2025-06"] {
            for (index, store) in Self.stores.enumerated() {
                for (offset, vendor) in ["Pandora", "Seiko", "Tacori"].enumerated() {
                    vendors +=
                        "\(store.code),\(month),V10\(offset),\(vendor),\(3000 + index * 10 + offset),\(12 + offset)\n"
                }
                let local = Self.localVendor(store.code)
                vendors += "\(store.code),\(month),\(local.key),\(local.name),\(2000 + index),9\n"
            }
        }
        try stores.write(toFile: folder + "/stores.csv", atomically: true, encoding: .utf8)
        try goals.write(toFile: folder + "/goals.csv", atomically: true, encoding: .utf8)
        for (name, text) in [
            ("sales_audit_2025Q2.csv", sales), ("employee_sales_2025Q2.csv", associates),
            ("category_sales_2025Q2.csv", categories), ("vendor_sales_2025Q2.csv", vendors),
        ] {
            try text.write(toFile: feeds + "/" + name, atomically: true, encoding: .utf8)
        }
    }
}
