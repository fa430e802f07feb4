import Foundation
@_spi(Fuzzing) import SheetStream
import TestSupport
import XCTest

/// Every reproducer the fuzz targets found (`Tests/Fixtures/fuzz`), kept as a regression test:
/// `differential_*.xml` must read the same through `XMLScanner` and libxml2, `xlsx_*` and
/// `csv_*` must end in rows or an error, never a crash.
final class FuzzRegressionTests: XCTestCase {
    private var inputs: [String] {
        let folder = TestPaths.fixture("fuzz")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted().map { folder + "/" + $0 }
    }

    func testDifferentialReproducersReadTheSameThroughBothParsers() throws {
        let files = inputs.filter { ($0 as NSString).lastPathComponent.hasPrefix("differential_") }
        XCTAssertFalse(files.isEmpty)
        for path in files {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let scanned = FuzzEntryPoints.worksheetRows(bytes, libxml2: false)
            let parsed = FuzzEntryPoints.worksheetRows(bytes, libxml2: true)
            XCTAssertTrue(scanned.agrees(with: parsed), "\(path): \(scanned) against \(parsed)")
        }
    }

    func testCSVReproducersReadTheSameEveryWay() throws {
        let files = inputs.filter { ($0 as NSString).lastPathComponent.hasPrefix("csv_") }
        XCTAssertFalse(files.isEmpty)
        for path in files {
            for chunkSize in [16, 64, 256, 1024] {
                for batchSize in 1...3 {
                    let read = FuzzEntryPoints.readCSV(path: path, chunkSize: chunkSize, batchSize: batchSize)
                    let context = "\(path), chunks of \(chunkSize), batches of \(batchSize)"
                    XCTAssertEqual(read.fast, read.stateMachine, context)
                    XCTAssertEqual(read.fast, read.concurrent, context)
                }
            }
        }
    }

    func testAnInvalidUTF8AttributeNameIsAnError() throws {
        let bytes = Array(
            try Data(
                contentsOf: URL(
                    fileURLWithPath: TestPaths.fixture("fuzz/differential_invalid_utf8_in_attribute_name.xml"))))
        XCTAssertEqual(FuzzEntryPoints.worksheetRows(bytes, libxml2: false), .failed("XMLError"))
        let names: [(String, Bool)] = [
            ("<a><b x=\"1\"/></a>", true), ("<a><1b/></a>", false), ("<a><b-c.d_e/></a>", true),
            ("<a><b!/></a>", false),
            ("<a><é/></a>", true), ("<a><b ×=\"1\"/></a>", false), ("<a><-b/></a>", false),
            ("<a><!-- fine - here --></a>", true), ("<a><!-- not -- here --></a>", false),
            ("<a><!-- nor here---></a>", false),
            ("<a><?pi some content?></a>", true), ("<a><?1pi?></a>", false), ("<a><?pi\u{1}?></a>", false),
            ("<?xml version=\"1.0\" standalone=\"yes\"?><a/>", true), ("<?xml version=\"2\"?><a/>", false),
            ("<?xml version=\"1.\"?><a/>", true), ("<?xml version=\"1\"?><a/>", false),
            ("<?xml version=\"1.0a\"?><a/>", false),
            ("<a b=\"&amp;&#233;\"/>", true), ("<a b=\"&nope;\"/>", false), ("<a b=\"1\" c=\"2\" b=\"3\"/>", false),
            ("<a xmlns:x=\"u\" xmlns:x=\"v\"/>", false),
            // libxml2 reads `p:l:rest` as the QName `p:l` and then `rest` as a name: one that
            // does not start as a name does ends it early, leaving the rest a syntax error.
            ("<a b:c:d=\"1\"/>", true), ("<a b:c:2=\"1\"/>", false), ("<a xmlns:x:2=\"u\"/>", false),
            ("<a xmlns:x:-=\"u\"/>", false), ("<x:a:2 xmlns:x=\"u\"/>", false), ("<a xmlns:x:y:2=\"u\"/>", true),
            ("<a b::2=\"1\"/>", true), ("<a b:2:3=\"1\"/>", true), ("<a b:c::2=\"1\"/>", true),
            ("<a b:c:=\"1\"/>", true), ("<a :b:2=\"1\"/>", true), ("<a b:é:·=\"1\"/>", false),
        ]
        for (xml, valid) in names {
            let scanned = FuzzEntryPoints.worksheetRows(Array(xml.utf8), libxml2: false)
            XCTAssertTrue(scanned.agrees(with: FuzzEntryPoints.worksheetRows(Array(xml.utf8), libxml2: true)), xml)
            XCTAssertEqual(scanned != .failed("XMLError"), valid, xml)
        }
    }
}
