import XCTest

@testable import KPI
@testable import Reports

/// Money and numbers in the config's currency and locale (SPEC section 26), through Foundation;
/// `en-US` and USD stay exactly as the golden reports write them.
final class NumberStyleTests: XCTestCase {
    override func tearDown() {
        NumberStyle.use(.standard)
        super.tearDown()
    }

    func testEurosInGermanAreWrittenTheGermanWay() throws {
        NumberStyle.use(try NumberStyle(currency: "EUR", locale: "de-DE"))
        XCTAssertEqual(NumberText.formatted(1_234.56, .moneyWithCents), "1.234,56\u{a0}€")
        XCTAssertEqual(NumberText.formatted(-1_234.5, .money), "−1.235\u{a0}€")
        XCTAssertEqual(NumberText.formatted(12_345, .count), "12.345")
        XCTAssertEqual(NumberText.formatted(1.5345, .decimal), "1,53")
        XCTAssertEqual(NumberText.formatted(0.452, .percent), "45,2\u{a0}%")
        XCTAssertEqual(NumberText.change(-0.0314), "▼ −3,1\u{a0}%")
        XCTAssertEqual(NumberText.target(1.5, .count), "1,5")
        XCTAssertEqual(NumberText.moneyTitle("Sales"), "Sales (€)")
        XCTAssertEqual(XLSXStyles.moneyFormat(decimals: 2), "#,##0.00 \"€\"")
    }

    func testAPoundBeforeItsNumberInBritishEnglish() throws {
        NumberStyle.use(try NumberStyle(currency: "GBP", locale: "en-GB"))
        XCTAssertEqual(NumberText.formatted(1_234_567.891, .money), "£1,234,568")
        XCTAssertEqual(XLSXStyles.moneyFormat(decimals: 0), "\"£\"#,##0")
    }

    func testTheStandardStyleIsTheGoldenReportsOwn() {
        XCTAssertEqual(NumberText.formatted(-1_234.5, .moneyWithCents), "−$1,234.50")
        XCTAssertEqual(NumberText.change(0.041), "▲ +4.1%")
        XCTAssertEqual(XLSXStyles.moneyFormat(decimals: 0), "$#,##0")
        XCTAssertEqual(NumberText.moneyTitle("Sales"), "Sales ($)")
    }

    func testCSVAndJSONNumbersIgnoreTheStyle() throws {
        NumberStyle.use(try NumberStyle(currency: "EUR", locale: "de-DE"))
        XCTAssertEqual(NumberText.plain(1_234.5, .money), "1234.5")
        XCTAssertEqual(NumberText.plain(0.452), "0.452")
    }

    func testAnUnknownCurrencyOrLocaleIsNamed() {
        XCTAssertThrowsError(try NumberStyle(currency: "EURO", locale: "de-DE")) {
            XCTAssertEqual("\($0)", "currency = \"EURO\": expected an ISO 4217 code such as USD or EUR")
        }
        XCTAssertThrowsError(try NumberStyle(currency: "EUR", locale: "xx-YY")) {
            XCTAssertEqual("\($0)", "locale = \"xx-YY\": expected a locale such as en-US or de-DE")
        }
    }
}
