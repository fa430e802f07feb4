import Feeds
import SheetStream
import XCTest

/// How a row fits a feed's header (SPEC section 26): the field of each column, what the closest
/// layout lacks, and the config line that would add it.
final class HeaderFitTests: XCTestCase {
    private func row(_ headers: [String]) -> Row { Row(number: 1, cells: headers.map(Cell.string)) }

    func testAPOSExportWithoutItemsNamesEachMissingFieldAndTheLineToAdd() {
        let fit = HeaderFit(
            row(["Store", "Date", "Net Sales", "Customers", "Open"]), definition: FeedCatalog.definition(.salesAudit))
        XCTAssertFalse(fit.fits)
        XCTAssertEqual(fit.columns.map(\.field), [.store, .date, .totalSales, nil, nil])
        XCTAssertEqual(fit.columns.map(\.letters), ["A", "B", "C", "D", "E"])
        XCTAssertEqual(fit.missing.map(\.anyOf), [[.totalTransactions], [.totalItems]])
        XCTAssertEqual(fit.fieldCount, 3)
        XCTAssertEqual(
            fit.explanation(quotingCells: true),
            "missing totalTransactions (built-in names: \"Transactions\", \"Trans\", \"Trans Count\", \"# Trans\", \"Tickets\", \"Invoices\"; add [aliases.sales-audit] totalTransactions = [\"…\"]); missing totalItems (built-in names: \"Items\", \"Units\", \"Items Sold\", \"Units Sold\", \"Qty\"; add [aliases.sales-audit] totalItems = [\"…\"])"
        )
    }

    func testAHeaderSharingAWordWithTheFieldIsOfferedOnceAndAConfigAliasIsNamed() throws {
        let options = FeedOptions(extraAliases: [.salesAudit: [.totalTransactions: ["Customers"]]])
        let fit = HeaderFit(
            row(["Store", "Week", "Weekly_Sales", "Customers", "Sales Units"]),
            definition: options.definition(.salesAudit))
        XCTAssertEqual(fit.columns.map(\.byConfigAlias), [false, false, false, true, false])
        let explanation = fit.explanation(quotingCells: true)
        XCTAssertTrue(explanation.contains("add [aliases.sales-audit] date = [\"…\"]"), explanation)
        XCTAssertTrue(explanation.contains("add [aliases.sales-audit] totalSales = [\"Weekly_Sales\"]"), explanation)
        XCTAssertTrue(explanation.contains("add [aliases.sales-audit] totalItems = [\"…\"]"), explanation)
        XCTAssertTrue(explanation.hasSuffix("; config alias \"Customers\" matched totalTransactions"), explanation)
        let forLogs = fit.explanation(quotingCells: false)
        XCTAssertFalse(forLogs.contains("Weekly_Sales") || forLogs.contains("Customers"), forLogs)
        XCTAssertTrue(forLogs.hasSuffix("; config alias in column D matched totalTransactions"), forLogs)
    }

    func testAWeeklyFeedLackingItsWeekdaysSaysSoAndAHeaderRowFits() {
        let calls = FeedCatalog.definition(.outboundCalls)
        let partial = HeaderFit(row(["Store", "Week Of"]), definition: calls)
        XCTAssertTrue(partial.explanation(quotingCells: true).contains("missing a weekday column (Mon … Sun)"))
        let full = HeaderFit(row(["Store", "Week Of", "Mon", "Tue"]), definition: calls)
        XCTAssertTrue(full.fits, "\(full.missing)")
        XCTAssertEqual(full.explanation(quotingCells: true), "")
    }
}
