import Reports
import XCTest

/// `TextTable`'s two layouts: the reports' (first column left, the rest right, one space, no
/// trailing spaces) and one of the caller's (`runs`: its alignments and separator, the last
/// column unpadded).
final class TextTableTests: XCTestCase {
    func testTheReportsLayoutAlignsTheFirstColumnLeftAndTrimsTrailingSpaces() {
        var table = TextTable()
        table.add(["Metric", "actual", ""])
        table.add(["UPT", "1.5", "▲ +2%"])
        XCTAssertEqual(table.render(), "Metric actual\nUPT       1.5 ▲ +2%\n")
    }

    func testTheReportsLayoutCentresGroupsOverTheirColumns() {
        var table = TextTable()
        table.group("MTD", from: 1, span: 2)
        table.add(["Metric", "actual", "vs target"])
        XCTAssertEqual(table.render(), "              MTD\nMetric actual vs target\n")
    }

    func testACallersLayoutAlignsEachColumnAndLeavesTheLastCellAsIs() {
        var table = TextTable(alignments: [.right, .left, .left], separator: "  ")
        table.add(["id", "status", "file"])
        table.add(["12", "ok", "a long/path.csv "])
        table.add(["3", "duplicate", "b.csv"])
        XCTAssertEqual(table.render(), "id  status     file\n12  ok         a long/path.csv \n 3  duplicate  b.csv\n")
    }

    func testControlCharactersInCellsAndTitlesAreEscaped() {
        var table = TextTable()
        table.group("Q\u{1B}[2J", from: 1, span: 1)
        table.add(["Store", "Name"])
        table.add(["08", "Nat\u{1B}[31mick\r\nX\u{0}"])
        XCTAssertEqual(
            table.render(),
            String(repeating: " ", count: 14) + "Q\\x1b[2J\nStore" + String(repeating: " ", count: 20)
                + "Name\n08    Nat\\x1b[31mick\\r\\nX\\x00\n")
    }

    func testWidthsCountCharactersWhateverTheirScalarsAndTrimmingKeepsTheLastOne() {
        var table = TextTable()
        // "é" as e + a combining accent is one character; "👍🏽" (two scalars) is one too.
        table.add(["Cafe\u{301}", "👍🏽", "—"])
        table.add(["Café ▲", "1", "−2"])
        table.add(["x", "", ""])
        XCTAssertEqual(table.render(), "Cafe\u{301}   👍🏽  —\nCafé ▲ 1 −2\nx\n")
        XCTAssertEqual(TextTable.width("▼ −3.0% · Cafe\u{301}"), 14)
    }

    func testAC1ControlIsEscapedBesideOtherTwoByteCharacters() {
        var table = TextTable()
        table.add(["Zürich\u{85}", "©"])
        XCTAssertEqual(table.render(), "Zürich\\x85 ©\n")
    }
}
