import CivilCalendar
import Feeds
import SheetStream
import XCTest

final class NormalizerTests: XCTestCase {
    private let directory = StoreDirectory(stores: [
        StoreRecord(code: "08", name: "Natick", region: "East", aliases: ["Hannoush Jewelers - Natick"]),
        StoreRecord(code: "10", name: "Framingham", region: "East"),
        StoreRecord(code: "108", name: "Big Store", region: "West"),
    ])

    private func store(_ cell: Cell) -> String? { try? directory.resolve(cell).get() }

    func testStoreCodesFromEverySpecForm() {
        for cell: Cell in [
            .number(8), .number(8.0), .string("8"), .string("8.0"), .string("08"), .string("Store 08"),
            .string("#8"), .string("08 - Natick"), .string("Store 8 Natick"), .string(" store #8 "),
        ] {
            XCTAssertEqual(store(cell), "08", "\(cell)")
        }
        XCTAssertEqual(store(.string("108")), "108")
    }

    func testStoreNamesAndAliasesMatchCaseInsensitivelyWithSpacesCollapsed() {
        XCTAssertEqual(store(.string("Hannoush Jewelers - Natick")), "08")
        XCTAssertEqual(store(.string("  hannoush   JEWELERS -  natick\u{A0}")), "08")
        XCTAssertEqual(store(.string("Natick")), "08")
        XCTAssertEqual(store(.string("Hannoush Jewelers - Framingham")), "10", "the part after the last dash")
    }

    func testUnknownStoresAreFailuresNeverNewStores() {
        XCTAssertEqual(directory.resolve(.string("99")), .failure(.invalid("is not a known store code (99)")))
        XCTAssertEqual(directory.resolve(.string("Boston")), .failure(.invalid("is not a known store name or alias")))
        XCTAssertEqual(directory.resolve(.number(8.5)), .failure(.invalid("is not a store code")))
        XCTAssertEqual(directory.resolve(.empty), .failure(.missing))
    }

    func testMoneyIsIntegerCents() {
        XCTAssertEqual(try ValueNormalizer.money(.number(1234.56)).get(), 123_456)
        XCTAssertEqual(try ValueNormalizer.money(.string("$1,234.56")).get(), 123_456)
        XCTAssertEqual(try ValueNormalizer.money(.string("(1,234.56)")).get(), -123_456)
        XCTAssertEqual(try ValueNormalizer.money(.string("-1,234.56")).get(), -123_456)
        XCTAssertEqual(try ValueNormalizer.money(.string("-$5")).get(), -500)
        XCTAssertEqual(ValueNormalizer.money(.string("12,3x4")), .failure(.invalid("is not a number")))
        XCTAssertEqual(ValueNormalizer.money(.string("nan")), .failure(.invalid("is not a number")))
        XCTAssertEqual(ValueNormalizer.money(.string("--5")), .failure(.invalid("is not a number")))
        XCTAssertEqual(ValueNormalizer.count(.number(2.5)), .failure(.invalid("is not a whole number")))
        XCTAssertEqual(try ValueNormalizer.count(.string("1,234")).get(), 1234)
    }

    func testMoneyRoundsHalfAwayFromZeroOnTheDecimalDigits() {
        // 0.285 * 100 is 28.499999999999996 in binary; the value written is 0.285.
        XCTAssertEqual(try ValueNormalizer.money(.number(0.285)).get(), 29)
        XCTAssertEqual(try ValueNormalizer.money(.number(-0.285)).get(), -29)
        XCTAssertEqual(try ValueNormalizer.money(.string("1.005")).get(), 101)
        XCTAssertEqual(try ValueNormalizer.money(.string("-1.005")).get(), -101)
        XCTAssertEqual(try ValueNormalizer.money(.string("1.0049")).get(), 100)
        XCTAssertEqual(try ValueNormalizer.money(.string("1.2E3")).get(), 120_000)
        XCTAssertEqual(try ValueNormalizer.money(.string(".5")).get(), 50)
        XCTAssertEqual(try ValueNormalizer.money(.number(251_137.91)).get(), 25_113_791)
        XCTAssertEqual(try ValueNormalizer.money(.number(1e-5)).get(), 0)
        XCTAssertEqual(
            ValueNormalizer.money(.number(1e20)),
            .failure(.invalid("is out of range (at most 10,000,000,000,000 in magnitude)")))
        XCTAssertEqual(ValueNormalizer.money(.string("e5")), .failure(.invalid("is not a number")))
        XCTAssertEqual(
            ValueNormalizer.money(.string("99999999999999999")),
            .failure(.invalid("is out of range (at most 10,000,000,000,000 in magnitude)")))
        XCTAssertEqual(ValueNormalizer.percent(.string("99999999999999999.5")), .failure(.invalid("is not a percent")))
        XCTAssertEqual(FixedPoint.scaled(text: "5.", digits: 2), 500)
        XCTAssertEqual(FixedPoint.scaled(text: "0.0001", digits: 2), 0)
        XCTAssertEqual(FixedPoint.scaled(text: "-0.005", digits: 2), -1)
        XCTAssertNil(FixedPoint.scaled(text: "1.2.3", digits: 2))
        XCTAssertNil(FixedPoint.scaled(text: "-", digits: 2))
        XCTAssertEqual(try ValueNormalizer.count(.string("0012")).get(), 12)
    }

    func testFixedPointAgreesWithDecimalArithmeticOnRandomValues() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let units = Int64.random(in: -10_000_000_000...10_000_000_000, using: &generator)
            let thousandths = units * 10 + Int64.random(in: -9...9, using: &generator)
            let text =
                (thousandths < 0 ? "-" : "")
                + "\(abs(thousandths) / 1000).\(String(format: "%03lld", abs(thousandths) % 1000))"
            let expected = thousandths >= 0 ? (thousandths + 5) / 10 : -((-thousandths + 5) / 10)
            XCTAssertEqual(FixedPoint.scaled(text: text, digits: 2), expected, text)
            guard let value = Double(text) else { return XCTFail(text) }
            XCTAssertEqual(FixedPoint.scaled(value, digits: 2), expected, text)
        }
    }

    func testPercentsAreStoredAsMillionths() {
        for cell: Cell in [.number(0.452), .string("45.2%"), .number(45.2), .string("45.2"), .string("0.452")] {
            XCTAssertEqual(try ValueNormalizer.percent(cell).get(), 452_000, "\(cell)")
        }
        XCTAssertEqual(try ValueNormalizer.percent(.number(0.4521375)).get(), 452_138, "half away from zero")
        XCTAssertEqual(try ValueNormalizer.percent(.string("-12.5%")).get(), -125_000)
        XCTAssertEqual(try ValueNormalizer.percent(.number(1.2)).get(), 1_200_000, "at most 1.5 is already a fraction")
        XCTAssertEqual(ValueNormalizer.percent(.string("n/a")), .failure(.invalid("is not a percent")))
        // Just above 1.5 is points, as text as well as a number, though it rounds to 1.5 in
        // millionths; 1.5 itself and just below are fractions.
        for (cell, expected): (Cell, Int64) in [
            (.number(1.5000001), 15_000), (.string("1.5000001"), 15_000), (.number(1.5), 1_500_000),
            (.string("1.5"), 1_500_000), (.string("1.4999999"), 1_500_000),
        ] {
            XCTAssertEqual(try ValueNormalizer.percent(cell).get(), expected, "\(cell)")
        }
    }

    func testDatesFromCellsSerialsAndEveryTextForm() throws {
        let expected = CivilDate(year: 2025, month: 7, day: 15)
        let parser = DateText()
        func date(_ cell: Cell, _ system: ExcelDateSystem = .date1900) -> CivilDate? {
            try? ValueNormalizer.date(cell, parser: parser, dateSystem: system).get()
        }
        XCTAssertEqual(date(.date(CellDateTime(year: 2025, month: 7, day: 15, hour: 13)!)), expected)
        XCTAssertEqual(date(.number(45_853)), expected)
        XCTAssertEqual(date(.number(44_391), .date1904), expected)
        for text in [
            "2025-07-15", "7/15/2025", "07/15/25", "15-Jul-2025", "Jul 15, 2025", "July 15, 2025",
            "2025-07-15 13:45", "2025-07-15T13:45:07", "7/15/2025 1:43 PM", "7/15/2025 13:45:07",
            "15 Jul 2025", "Jul 15 2025 12:00 AM",
        ] {
            XCTAssertEqual(date(.string(text)), expected, text)
        }
        XCTAssertNil(date(.string("15/7/2025")), "day-first only when configured")
        XCTAssertEqual(
            try ValueNormalizer.date(.string("15/7/2025"), parser: DateText(dayFirst: true), dateSystem: .date1900)
                .get(), expected)
        XCTAssertNil(date(.string("2025-02-30")))
        XCTAssertNil(date(.string("7/15/2025 25:00")))
        XCTAssertNil(date(.string("soon")))
        XCTAssertEqual(DateText().parse("7/15/2025 12:05 AM")?.secondsOfDay, 300)
        XCTAssertEqual(DateText().parse("7/15/2025 1:43 PM")?.secondsOfDay, 13 * 3600 + 43 * 60)
    }

    func testTextCleaning() {
        XCTAssertEqual(TextNormalizer.clean("\u{A0} Natick\u{A0}Mall \n"), "Natick Mall")
        XCTAssertNil(TextNormalizer.clean(" \u{A0} "))
        XCTAssertEqual(TextNormalizer.matchKey("  Natick    MALL "), "natick mall")
    }

    func testHeaderKeysIgnoreCaseSpacesAndPunctuation() {
        for header in ["Net Sales", "NET_SALES", "net sales ($)", "Net-Sales"] {
            XCTAssertEqual(HeaderKey.normalize(header), "netsales", header)
        }
        for header in ["Store #", "Store#", "Store No", "STORE_NO."] {
            XCTAssertEqual(HeaderKey.normalize(header), "storeno", header)
        }
        XCTAssertNotEqual(HeaderKey.normalize("Employee #"), HeaderKey.normalize("Employee"))
        let definition = FeedCatalog.definition(.salesAudit)
        XCTAssertEqual(definition.field(forHeader: "# Trans"), .totalTransactions)
        XCTAssertEqual(definition.field(forHeader: "Store #"), .store)
        XCTAssertEqual(definition.field(forHeader: "Gross Margin %"), .gpPct)
        XCTAssertNil(definition.field(forHeader: "Associate"))
    }

    func testConfigAliasesThatNameAnotherFieldAreRefused() {
        let clash = FeedOptions(extraAliases: [.salesAudit: [.totalItems: ["NET_SALES"]]])
        XCTAssertThrowsError(try clash.validate()) { error in
            XCTAssertEqual(
                "\(error)",
                "alias \"NET_SALES\" for sales-audit field totalItems reads as \"netsales\", which already names field totalSales"
            )
        }
        let fine = FeedOptions(extraAliases: [.salesAudit: [.totalSales: ["Net Revenue", "Net Sales"]]])
        XCTAssertNoThrow(try fine.validate())
        XCTAssertEqual(fine.definition(.salesAudit).field(forHeader: "net revenue"), .totalSales)
    }

    func testWeekStarts() {
        let options = FeedOptions()
        XCTAssertEqual(
            CivilDate(year: 2025, month: 7, day: 20).weekStart(on: options.weekStart),
            CivilDate(year: 2025, month: 7, day: 14))
        XCTAssertEqual(
            CivilDate(year: 2025, month: 7, day: 14).weekStart(on: options.weekStart),
            CivilDate(year: 2025, month: 7, day: 14))
        let sunday = FeedOptions(weekStart: 6)
        XCTAssertEqual(
            CivilDate(year: 2025, month: 7, day: 15).weekStart(on: sunday.weekStart),
            CivilDate(year: 2025, month: 7, day: 13))
    }

    /// SPEC section 26: an `Open` column's values, in any case; anything else is named.
    func testOpenFlagsTakeEveryFormTheSpecNames() {
        for (cell, open) in [
            (Cell.string("1"), true), (.string("0"), false), (.string("TRUE"), true), (.string("false"), false),
            (.string("Y"), true), (.string("n"), false), (.string(" Yes "), true), (.string("no"), false),
            (.number(1), true), (.number(0), false), (.bool(true), true), (.bool(false), false),
        ] {
            XCTAssertEqual(try? ValueNormalizer.flag(cell).get(), open, "\(cell)")
        }
        guard case .failure(.invalid(let reason)) = ValueNormalizer.flag(.string("closed")) else {
            return XCTFail("\"closed\" is not a flag")
        }
        XCTAssertEqual(reason, "is not a yes-or-no flag (expected 1/0, true/false, Y/N or yes/no)")
        guard case .failure(.missing) = ValueNormalizer.flag(.empty) else { return XCTFail("empty is missing") }
    }
}
