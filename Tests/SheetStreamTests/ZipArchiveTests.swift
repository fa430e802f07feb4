import SheetStream
import TestSupport
import XCTest

final class ZipArchiveTests: XCTestCase {
    private func text(of part: String, in fixture: String) throws -> String {
        let archive = try ZipArchive(path: TestPaths.fixture(fixture))
        let entry = try XCTUnwrap(archive.entry(named: part))
        return String(decoding: try archive.contents(of: entry), as: UTF8.self)
    }

    func testDeflateStoredZip64AndCommentedArchivesReadTheSameSheet() throws {
        for fixture in ["minimal_deflate.xlsx", "minimal_stored.xlsx", "minimal_zip64.xlsx", "minimal_comment.xlsx"] {
            let sheet = try text(of: "xl/worksheets/sheet1.xml", in: fixture)
            XCTAssertTrue(sheet.contains("<v>42</v>"), fixture)
        }
        let stored = try ZipArchive(path: TestPaths.fixture("minimal_stored.xlsx"))
        XCTAssertEqual(stored.entries.first?.method, 0)
    }

    func testDataDescriptorEntriesTrustTheCentralDirectory() throws {
        let archive = try ZipArchive(path: TestPaths.fixture("data_descriptors.xlsx"))
        let entry = try XCTUnwrap(archive.entry(named: "xl/workbook.xml"))
        XCTAssertNotEqual(entry.flags & 0x08, 0, "fixture must use data descriptors")
        let bytes = try archive.contents(of: entry)
        XCTAssertEqual(UInt64(bytes.count), entry.uncompressedSize)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).contains("Sales Audit"))
    }

    func testPartNamesMatchCaseInsensitivelyAndWithBackslashes() throws {
        let archive = try ZipArchive(path: TestPaths.fixture("minimal_deflate.xlsx"))
        XCTAssertNotNil(archive.entry(named: "XL/Worksheets/SHEET1.xml"))
        XCTAssertNotNil(archive.entry(named: "xl\\worksheets\\sheet1.xml"))
        XCTAssertNotNil(archive.entry(named: "/xl/workbook.xml"))
        XCTAssertNil(archive.entry(named: "xl/worksheets/sheet2.xml"))
    }

    func testCRCMismatchIsAnErrorNamingThePart() throws {
        let archive = try ZipArchive(path: TestPaths.fixture("crc_mismatch.xlsx"))
        let entry = try XCTUnwrap(archive.entry(named: "xl/worksheets/sheet1.xml"))
        XCTAssertThrowsError(try archive.contents(of: entry)) { error in
            let zipError = error as? ZipError
            guard case .crcMismatch = zipError?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(zipError?.part, "xl/worksheets/sheet1.xml")
            XCTAssertTrue("\(error)".contains("crc_mismatch.xlsx: xl/worksheets/sheet1.xml: CRC-32 mismatch"))
        }
    }

    func testHighRatioBombFailsBeforeInflating() throws {
        let archive = try ZipArchive(path: TestPaths.fixture("bomb_ratio.xlsx"))
        let entry = try XCTUnwrap(archive.entry(named: "xl/worksheets/sheet1.xml"))
        XCTAssertGreaterThan(entry.uncompressedSize, 64 << 20)
        XCTAssertThrowsError(try archive.stream(entry)) { error in
            guard case .compressionRatioTooHigh(let ratio, 250) = (error as? ZipError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertGreaterThan(ratio, 1000)
        }
    }

    func testEntryThatInflatesPastItsDeclaredSizeStopsThere() throws {
        let archive = try ZipArchive(path: TestPaths.fixture("bomb_lying_size.xlsx"))
        let entry = try XCTUnwrap(archive.entry(named: "xl/worksheets/sheet1.xml"))
        XCTAssertEqual(entry.uncompressedSize, 1024)
        let stream = try archive.stream(entry)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        XCTAssertThrowsError(try buffer.withUnsafeMutableBytes { try stream.read(into: $0) }) { error in
            guard case .sizeMismatch(1024, let actual) = (error as? ZipError)?.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertLessThanOrEqual(actual, 64 << 10, "must stop within one buffer, not inflate the bomb")
        }
    }

    func testEntryLimitIsEnforced() throws {
        let limits = ZipLimits(maxEntryBytes: 100)
        let archive = try ZipArchive(path: TestPaths.fixture("minimal_deflate.xlsx"), limits: limits)
        let entry = try XCTUnwrap(archive.entry(named: "xl/worksheets/sheet1.xml"))
        XCTAssertThrowsError(try archive.stream(entry)) { error in
            guard case .entryTooLarge(_, 100) = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testTruncatedAndNonZipFilesGiveClearErrors() {
        XCTAssertThrowsError(try ZipArchive(path: TestPaths.fixture("truncated.xlsx"))) { error in
            guard case .truncated = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try ZipArchive(path: TestPaths.fixture("not_a_zip.xlsx"))) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .notAZip)
        }
        XCTAssertThrowsError(try ZipArchive(path: TestPaths.fixture("no_such_file.xlsx"))) { error in
            guard case .cannotOpen = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testOLEContainerIsReportedAsEncryptedOrNotXLSX() throws {
        let directory = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try TestPaths.write(
            [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 504), named: "book.xlsx",
            in: directory)
        XCTAssertThrowsError(try ZipArchive(path: path)) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .encryptedOrLegacy)
            XCTAssertTrue("\(error)".contains("encrypted or not an XLSX"))
        }
    }

    func testEncryptedEntryIsRefused() throws {
        XCTAssertThrowsError(try XLSXWorkbook(path: TestPaths.fixture("encrypted_entry_flag.xlsx"))) { error in
            XCTAssertEqual((error as? ZipError)?.reason, .encryptedEntry)
        }
    }

    /// Issue 20: a second entry for a part (the same name, or one differing only in case) was read
    /// silently, the first one winning; OPC forbids it (ECMA-376 Part 2, §9.1.1.1).
    func testDuplicatePartNamesAreRefused() throws {
        let cases = [
            ("duplicate_part_name.xlsx", "xl/worksheets/sheet1.xml"),
            ("duplicate_part_name_case.xlsx", "XL/Worksheets/Sheet1.xml"),
        ]
        for (fixture, second) in cases {
            let path = TestPaths.fixture(fixture)
            XCTAssertThrowsError(try XLSXWorkbook(path: path), fixture) { error in
                XCTAssertEqual(
                    (error as? ZipError)?.reason, .duplicatePart(first: "xl/worksheets/sheet1.xml", second: second))
                XCTAssertEqual(
                    "\(error)",
                    "\(path): entries \"xl/worksheets/sheet1.xml\" and \"\(second)\" name the same part; a package may hold a part name once, compared ignoring case (ECMA-376 Part 2, §9.1.1.1)"
                )
            }
        }
    }
}
