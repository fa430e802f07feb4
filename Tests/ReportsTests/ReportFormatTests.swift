import XCTest

@testable import Reports

/// Each format reaches a renderer as text or as a document, and a renderer asked for one it
/// does not write says so rather than stopping the process.
final class ReportFormatTests: XCTestCase {
    func testEachFormatIsTextOrADocument() {
        let kinds = ReportFormat.allCases.map { format -> String in
            switch format.kind {
            case .text(let text): return "\(format.rawValue): text \(text)"
            case .document(let document): return "\(format.rawValue): document \(document)"
            }
        }
        XCTAssertEqual(
            kinds,
            [
                "table: text aligned", "text: text aligned", "csv: text csv", "json: text json", "html: text html",
                "xlsx: document xlsx", "pdf: document pdf",
            ])
        XCTAssertEqual(ReportFormat.allCases.filter(\.isDocument), [.xlsx, .pdf])
    }

    func testAStoreListInAFormatItDoesNotWriteIsAnError() throws {
        XCTAssertEqual(try StoreListRenderer.render([], firstSales: [:], format: .json), "{\"stores\":[\n]}\n")
        XCTAssertThrowsError(try StoreListRenderer.render([], firstSales: [:], format: .html)) {
            XCTAssertEqual("\($0)", "stores list writes table, csv, json, not html")
        }
    }
}
