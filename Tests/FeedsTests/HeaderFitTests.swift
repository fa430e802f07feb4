import Feeds
import SheetStream
import XCTest

/// How a row fits a feed's header (SPEC section 26): the field of each column, what the closest
/// layout lacks, and the config line that would add it.
final class HeaderFitTests: XCTestCase {
    private func row(_ headers: [String]) -> Row { Row(number: 1, cells: headers.map(Cell.string)) }

    /// SPEC section 26: a sales audit needs only store, date and sales; transactions, items and
    /// the `Open` flag are read when a column has them.
    func testAPOSExportWithoutItemsFitsAndAFileWithoutSalesNamesEachMissingFieldAndTheLineToAdd() {
        let pos = HeaderFit(
            row(["Store", "Date", "Net Sales", "Customers", "Open"]), definition: FeedCatalog.definition(.salesAudit))
        XCTAssertTrue(pos.fits, "\(pos.missing)")
        XCTAssertEqual(pos.columns.map(\.field), [.store, .date, .totalSales, nil, .open])
        XCTAssertEqual(pos.columns.map(\.letters), ["A", "B", "C", "D", "E"])
        XCTAssertEqual(pos.fieldCount, 4)
        XCTAssertEqual(pos.explanation(quotingCells: true), "")

        let fit = HeaderFit(
            row(["Store", "Customers", "Transactions", "Items"]), definition: FeedCatalog.definition(.salesAudit))
        XCTAssertFalse(fit.fits)
        XCTAssertEqual(fit.columns.map(\.field), [.store, nil, .totalTransactions, .totalItems])
        XCTAssertEqual(fit.missing.map(\.anyOf), [[.date], [.totalSales]])
        XCTAssertEqual(
            fit.explanation(quotingCells: true),
            "missing date (built-in names: \"Date\", \"Business Date\", \"Sales Date\", \"Trans Date\", \"Application Date\", \"App Date\", \"Review Date\", \"Created\", \"Created Date\", \"Intake Date\", \"Call Date\", \"Call Time\", \"Start Time\", \"Timestamp\"; add [aliases.sales-audit] date = [\"…\"]); missing totalSales (built-in names: \"Net Sales\", \"Total Sales\", \"Sales\", \"Net Sales $\"; add [aliases.sales-audit] totalSales = [\"…\"])"
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
        XCTAssertFalse(explanation.contains("totalItems"), "items are optional (SPEC section 26): \(explanation)")
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
