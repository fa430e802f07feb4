import Feeds
import Foundation
import TestSupport
import XCTest

@testable import ddkpi

/// `docs/ddkpi.example.toml`, the one example of the config file, read by the real loader: the
/// loader refuses unknown keys, so the example cannot name a setting ddkpi does not read, and
/// every value it shows must be the default it claims.
final class ConfigTemplateTests: XCTestCase {
    private let example = TestPaths.packageRoot.appendingPathComponent("docs/ddkpi.example.toml").path

    func testExampleConfigLoadsAndHoldsTheDefaults() throws {
        let loaded = try Configuration.load(path: example)
        let defaults = Configuration()

        XCTAssertEqual(loaded.databasePath, "ddkpi.sqlite")
        XCTAssertEqual(loaded.feedOptions.weekStart, defaults.feedOptions.weekStart)
        XCTAssertEqual(loaded.feedOptions.dateText.dayFirst, defaults.feedOptions.dateText.dayFirst)
        XCTAssertEqual(loaded.fiscalYearStartMonth, defaults.fiscalYearStartMonth)
        XCTAssertEqual(loaded.rejectThreshold, defaults.rejectThreshold)
        XCTAssertEqual(loaded.checks, defaults.checks)
        XCTAssertEqual(loaded.neutralBand, defaults.neutralBand)
        XCTAssertEqual(loaded.calendarKind, defaults.calendarKind)
        XCTAssertEqual(loaded.lastYearRule, .date)
        XCTAssertEqual(loaded.comparableStores, defaults.comparableStores)
        XCTAssertEqual(loaded.numberStyle, defaults.numberStyle)
        XCTAssertEqual(loaded.enabledFeeds, defaults.enabledFeeds)
        XCTAssertEqual(loaded.enabledFeeds, Set(FeedID.dataFeeds))
        XCTAssertNil(loaded.feedOptions.salesWeekDate)
        // Every data feed's freshness is listed, at the threshold it has when left out.
        for feed in FeedID.dataFeeds {
            XCTAssertEqual(loaded.freshness.thresholds[feed], defaults.freshness.threshold(for: feed), feed.rawValue)
        }
        // The alias and file-name tables are there in form only: they add nothing.
        XCTAssertEqual(loaded.namePatterns.count, 0)
        XCTAssertEqual(loaded.feedOptions.extraAliases[.salesAudit]?[.totalSales], [])
    }

    /// `[delivery]` at its defaults, no webhook, and one example rule that notifies nobody.
    func testExampleDeliveryAndAlertHoldTheDefaults() throws {
        let loaded = try Configuration.load(path: example)
        XCTAssertTrue(loaded.delivery == Configuration().delivery, "\(loaded.delivery)")
        XCTAssertEqual(loaded.alertRules.map(\.name), ["behind pace"])
        XCTAssertEqual(loaded.alertRules.first?.notify, [])
    }

    /// The check above proves every key known only because the loader refuses an unknown one.
    func testTheLoaderRefusesAnUnknownKeyInTheExample() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOfFile: example, encoding: .utf8)
        let edited = try TestPaths.write(
            Array(text.replacingOccurrences(of: "z = 5 ", with: "zz = 5").utf8), named: "ddkpi.toml", in: directory)
        XCTAssertThrowsError(try Configuration.load(path: edited)) { error in
            XCTAssertTrue("\(error)".contains("unknown setting \"check.zz\""), "\(error)")
        }
    }
}
