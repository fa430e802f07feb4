import SheetStream
import XCTest

final class NumberFormatTests: XCTestCase {
    func testBuiltinIds() {
        for id in [14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 36, 45, 47, 50, 58] {
            XCTAssertEqual(NumberFormat.kind(builtinId: id), .dateTime, "id \(id)")
        }
        for id in [0, 1, 2, 4, 9, 10, 11, 12, 13, 23, 37, 44, 48, 49, 59] {
            XCTAssertEqual(NumberFormat.kind(builtinId: id), .number, "id \(id)")
        }
        XCTAssertEqual(NumberFormat.kind(builtinId: 46), .duration)
    }

    func testCustomCodes() {
        let expectations: [(String, NumberFormatKind)] = [
            ("yyyy-mm-dd", .dateTime),
            ("yyyy\\-mm\\-dd", .dateTime),
            ("m/d/yy h:mm AM/PM", .dateTime),
            ("[$-409]mmmm d, yyyy;@", .dateTime),
            ("[Red]dd/mm/yyyy", .dateTime),
            ("hh:mm:ss", .dateTime),
            ("[h]:mm", .duration),
            ("[hh]:mm:ss", .duration),
            ("[mm]:ss", .duration),
            ("General", .number),
            ("0.00%", .number),
            ("#,##0.00", .number),
            ("\"$\"#,##0.00", .number),
            ("0.00E+00", .number),
            ("\"Day\" 0", .number),
            ("\\d0", .number),
            ("_(* #,##0_);_(* (#,##0)", .number),
            ("0;\"yes\";\"no\"", .number),
            ("[Blue]0.0;[Red]-0.0", .number),
        ]
        for (code, kind) in expectations {
            XCTAssertEqual(NumberFormat.kind(code: code), kind, code)
        }
    }
}
