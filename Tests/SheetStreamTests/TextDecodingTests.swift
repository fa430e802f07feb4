import OutputText
import XCTest

@testable import SheetStream

final class TextDecodingTests: XCTestCase {
    func testOOXMLEscapes() {
        XCTAssertEqual(OOXMLEscapes.decode("ABC_x000D_DEF"), "ABC\rDEF")
        XCTAssertEqual(OOXMLEscapes.decode("a_x000d__x000A_b"), "a\r\nb")
        XCTAssertEqual(OOXMLEscapes.decode("_x005F_x000D_"), "_x000D_", "an escaped underscore protects a literal")
        XCTAssertEqual(OOXMLEscapes.decode("_xD83D__xDE00_"), "😀", "a surrogate pair written as two escapes")
        XCTAssertEqual(OOXMLEscapes.decode("_xD83D_ alone"), "_xD83D_ alone", "a lone surrogate stays literal")
        XCTAssertEqual(OOXMLEscapes.decode("snake_case_x_y"), "snake_case_x_y")
        XCTAssertEqual(OOXMLEscapes.decode("_x00G1_"), "_x00G1_")
        XCTAssertEqual(OOXMLEscapes.decode("ünïcödé_x0009_"), "ünïcödé\t")
    }

    func testDecimalParser() {
        func parse(_ text: String) -> Double? {
            var copy = text
            return copy.withUTF8 { DecimalParser.parse($0) }
        }
        XCTAssertEqual(parse("42"), 42)
        XCTAssertEqual(parse("-1234.56"), -1234.56)
        XCTAssertEqual(parse("0.1"), 0.1)
        XCTAssertEqual(parse("1.5E-3"), 0.0015)
        XCTAssertEqual(parse("1e+16"), 1e16)
        XCTAssertEqual(parse("10.632060185185185"), 10.632060185185185)
        XCTAssertEqual(parse("123456789012345678901234"), 123456789012345678901234.0)
        XCTAssertEqual(parse("0.30000000000000004"), 0.30000000000000004)
        XCTAssertEqual(parse(" 7 "), 7)
        XCTAssertNil(parse(""))
        XCTAssertNil(parse("1.2.3"))
        XCTAssertNil(parse("abc"))
        XCTAssertNil(parse("1e"))
        XCTAssertEqual(parse("5."), 5)
        XCTAssertEqual(parse(".5"), 0.5)
        XCTAssertEqual(parse("+3"), 3)
        XCTAssertEqual(parse("-0")?.sign, .minus)
        XCTAssertEqual(parse("0001.2500"), 1.25)
        XCTAssertEqual(parse("9007199254740993"), 9007199254740993.0, "above 2^53: read by the general parser")
        XCTAssertNil(parse("."))
        XCTAssertNil(parse("-"))
        XCTAssertNil(parse("-."))
        XCTAssertNil(parse("1-2"))
    }

    /// Plain decimals of every length and scale read exactly as the standard library reads them.
    func testDecimalParserAgreesWithStandardLibrary() {
        // A fixed linear congruential sequence (Knuth's MMIX constants): the same inputs every run.
        var state: UInt64 = 20_261_122
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        for _ in 0..<20_000 {
            let digits = Int(next() % 19) + 1
            var text = next() % 2 == 0 ? "-" : ""
            let point = Int(next() % UInt64(digits + 1))
            for index in 0..<digits {
                if index == point && index > 0 { text += "." }
                text += String(next() % 10)
            }
            var copy = text
            let parsed = copy.withUTF8 { DecimalParser.parse($0) }
            XCTAssertEqual(parsed, Double(text), text)
        }
    }

    func testCellTextForDump() {
        XCTAssertEqual(CellText.text(.number(1234.5)), "1234.5")
        XCTAssertEqual(CellText.text(.number(3)), "3")
        XCTAssertEqual(CellText.text(.number(-0.25)), "-0.25")
        XCTAssertEqual(CellText.text(.number(1e16)), "1e+16")
        XCTAssertEqual(CellText.text(.bool(true)), "TRUE")
        XCTAssertEqual(CellText.text(.error("#DIV/0!")), "#DIV/0!")
        XCTAssertEqual(
            CellText.text(.date(CellDateTime(daysSinceEpoch: 20_284, secondsOfDay: 49_500))), "2025-07-15T13:45:00")
        XCTAssertEqual(CSVText.field("a,b"), "\"a,b\"")
        XCTAssertEqual(CSVText.field("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSVText.field("  padded  "), "  padded  ")
        XCTAssertEqual(JSONText.quoted("a\"b\\\n\u{1}"), "\"a\\\"b\\\\\\n\\u0001\"")
    }

    func testUTF8Validation() {
        func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer { UTF8Text.isValidUTF8($0) } }
        XCTAssertTrue(valid(Array("été 😀".utf8)))
        XCTAssertFalse(valid([0xE9, 0x74, 0xE9]), "Windows-1252 été")
        XCTAssertFalse(valid([0xC0, 0xAF]), "overlong")
        XCTAssertFalse(valid([0xED, 0xA0, 0x80]), "surrogate")
        XCTAssertFalse(valid([0xF4, 0x90, 0x80, 0x80]), "above U+10FFFF")
        XCTAssertFalse(valid([0xE2, 0x82]), "cut short")
        XCTAssertEqual(Windows1252.decode([0x80, 0x93, 0xE9, 0x41]), "€“éA")
    }
}
