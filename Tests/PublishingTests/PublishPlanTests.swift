import CivilCalendar
import Feeds
import XCTest

@testable import KPI
@testable import Publishing

final class PublishPlanTests: XCTestCase {
    private static let pack = """
        [[pack]]
        name = "08-natick"
        stores = ["08"]
        reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
        formats = ["pdf", "xlsx", "html"]

        [[pack]]
        name = "east"
        region = "East"
        reports = ["review"]
        formats = ["html"]

        [[pack]]
        name = "company"
        all = true
        reports = ["kpi"]
        formats = ["xlsx"]
        """

    func testAPlanListsItsPacksInOrder() throws {
        let plan = try PublishPlan(text: Self.pack, file: "packs.toml")
        XCTAssertEqual(plan.packs.map(\.name), ["08-natick", "east", "company"])
        XCTAssertEqual(plan.packs.map(\.scope), [.stores(["08"]), .region("East"), .all])
        XCTAssertEqual(plan.packs[0].reports, [.review, .kpi, .employees, .merchVendor, .merchCategory])
        XCTAssertEqual(plan.packs[0].formats, [.pdf, .xlsx, .html])
    }

    /// Each error names the plan's line: the key's, or the pack's `[[pack]]` header.
    func testErrorsNameTheLine() {
        let cases: [(String, String)] = [
            (
                Self.pack.replacingOccurrences(of: "\"pdf\"", with: "\"doc\""),
                "packs.toml line 5: formats: \"doc\" is not one of pdf, xlsx, html"
            ),
            (
                Self.pack.replacingOccurrences(of: "region = \"East\"", with: "region = \"East\"\nall = true"),
                "packs.toml line 7: pack \"east\": expected exactly one of stores = [...], region = \"...\" or all = true"
            ),
            (
                Self.pack.replacingOccurrences(of: "name = \"company\"", with: "name = \"east\""),
                "packs.toml line 14: name \"east\" is used by an earlier pack; each pack needs its own folder"
            ),
            (
                Self.pack.replacingOccurrences(of: "all = true", with: "all = true\ncolour = \"red\""),
                "packs.toml line 16: unknown key \"colour\"; expected name, stores, region, all, reports, formats, email"
            ),
            ("title = \"Q2\"\n" + Self.pack, "packs.toml line 1: unknown setting \"title\"; expected [[pack]] tables"),
            ("", "packs.toml line 1: no [[pack]] table; expected at least one pack"),
            (
                Self.pack.replacingOccurrences(of: "name = \"08-natick\"", with: "name = \"../up\""),
                "packs.toml line 2: name: expected a folder name of at most 200 bytes, not starting with \".\", "
                    + "without \"/\" or control characters"
            ),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try PublishPlan(text: text, file: "packs.toml")) { error in
                XCTAssertEqual(String(describing: error), expected)
            }
        }
    }

    /// The banner names feeds, never stores: each feed once, with its latest date among the pack's stores.
    func testTheBannerNamesLateFeeds() {
        func row(_ feed: FeedID, _ scope: String, _ last: CivilDate?, _ verdict: FreshnessVerdict) -> FreshnessRow {
            FreshnessRow(feed: feed, scope: scope, lastDate: last, daysSince: nil, threshold: 2, verdict: verdict)
        }
        let june = { CivilDate(year: 2025, month: 6, day: $0) }
        XCTAssertNil(Publisher.banner([row(.salesAudit, "08", june(30), .ok)]))
        XCTAssertEqual(
            Publisher.banner([
                row(.salesAudit, "08", june(30), .ok), row(.creditApps, "08", june(10), .late),
                row(.creditApps, "10", june(12), .late), row(.outboundCalls, "ALL", nil, .missing),
            ]), "Data late: credit-apps last 2025-06-12; outbound-calls missing")
    }
}
