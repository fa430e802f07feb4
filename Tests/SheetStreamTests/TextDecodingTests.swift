@testable import SheetStream
import XCTest

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
    }

    func testCellTextForDump() {
        XCTAssertEqual(CellText.text(.number(1234.5)), "1234.5")
        XCTAssertEqual(CellText.text(.number(3)), "3")
        XCTAssertEqual(CellText.text(.number(-0.25)), "-0.25")
        XCTAssertEqual(CellText.text(.number(1e16)), "1e+16")
        XCTAssertEqual(CellText.text(.bool(true)), "TRUE")
        XCTAssertEqual(CellText.text(.error("#DIV/0!")), "#DIV/0!")
        XCTAssertEqual(CellText.text(.date(CellDateTime(daysSinceEpoch: 20_284, secondsOfDay: 49_500))), "2025-07-15T13:45:00")
        XCTAssertEqual(RowWriter.csvField("a,b"), "\"a,b\"")
        XCTAssertEqual(RowWriter.csvField("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(RowWriter.csvField("  padded  "), "  padded  ")
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
