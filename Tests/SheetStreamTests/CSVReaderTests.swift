@_spi(Fuzzing) import SheetStream
import TestSupport
import XCTest

final class CSVReaderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestPaths.temporaryDirectory() }
    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    private func read(_ bytes: [UInt8], options: CSVOptions = CSVOptions()) throws -> (CSVReader, [Row]) {
        let path = try TestPaths.write(bytes, named: "feed.csv", in: directory)
        let reader = try CSVReader(path: path, options: options)
        var rows: [Row] = []
        try reader.readRows { rows.append($0) }
        return (reader, rows)
    }

    private func read(_ text: String, options: CSVOptions = CSVOptions()) throws -> [[Cell]] {
        try read(Array(text.utf8), options: options).1.map(\.cells)
    }

    private func strings(_ values: String?...) -> [Cell] { values.map { $0.map(Cell.string) ?? .empty } }

    func testQuotedFieldsWithDoubledQuotesAndNewlines() throws {
        let rows = try read("name,note\r\n\"Smith, J\",\"said \"\"hi\"\"\r\nthen left\"\r\nplain,\n")
        XCTAssertEqual(
            rows, [strings("name", "note"), strings("Smith, J", "said \"hi\"\r\nthen left"), strings("plain", nil)])
    }

    func testLineEndingsCRLFLFAndCR() throws {
        let expected = [strings("a", "b"), strings("1", "2"), strings("3", "4")]
        XCTAssertEqual(try read("a,b\r\n1,2\r\n3,4\r\n"), expected)
        XCTAssertEqual(try read("a,b\n1,2\n3,4"), expected)
        XCTAssertEqual(try read("a,b\r1,2\r3,4\r"), expected)
    }

    func testRecordNumbersCountTitleAndBlankLinesButNotQuotedNewlines() throws {
        let (_, rows) = try read(Array("Report\n\nStore,Date\n\"08\nNatick\",2025-07-15\n10,2025-07-16\n".utf8))
        XCTAssertEqual(rows.map(\.number), [1, 2, 3, 4, 5])
        XCTAssertEqual(rows[1].cells, [.empty])
        XCTAssertEqual(rows[3].cells, strings("08\nNatick", "2025-07-15"))
    }

    func testDelimiterSniffing() throws {
        for delimiter in [";", "\t", "|", ","] {
            let text =
                "Sales Audit Report\nStore\(delimiter)Net Sales\(delimiter)Items\n08\(delimiter)\"1,234.50\"\(delimiter)3\n10\(delimiter)99\(delimiter)4\n"
            let (reader, rows) = try read(Array(text.utf8))
            XCTAssertEqual(reader.delimiter, delimiter.utf8.first, "delimiter \(delimiter)")
            XCTAssertEqual(rows[2].cells, strings("08", "1,234.50", "3"), "delimiter \(delimiter)")
        }
        XCTAssertEqual(try read("a;b,c\n", options: CSVOptions(delimiter: UInt8(ascii: ";"))), [strings("a", "b,c")])
    }

    /// Issue 20: the sniffer counted a record only at a line end, so a header-only `;` export
    /// without a final line end (a day with no rows) was split on `,` into one field.
    func testDelimiterSniffingCountsALastRecordWithoutALineEnd() throws {
        for delimiter in [";", "\t", "|"] {
            let (reader, rows) = try read(Array("Store\(delimiter)Date\(delimiter)Net Sales".utf8))
            XCTAssertEqual(reader.delimiter, delimiter.utf8.first, "delimiter \(delimiter)")
            XCTAssertEqual(rows.map(\.cells), [strings("Store", "Date", "Net Sales")], "delimiter \(delimiter)")
        }
        let (bom, _) = try read([0xEF, 0xBB, 0xBF] + Array("Store;Date;Net Sales".utf8))
        XCTAssertEqual(bom.delimiter, UInt8(ascii: ";"))
        // A record cut by the end of the sample, not of the file, does not count: the file's
        // first 64 KiB end inside a long second record with commas in it.
        let cut = "Store;Date\n" + String(repeating: "a,", count: 40_000) + ";x\n"
        XCTAssertEqual(try read(Array(cut.utf8)).0.delimiter, UInt8(ascii: ";"))
    }

    func testBOMIsSkippedAndWindows1252IsDecodedWithAWarning() throws {
        let (reader, rows) = try read(
            [0xEF, 0xBB, 0xBF] + Array("Store,Name\n08,".utf8) + [
                0x4E, 0x61, 0x74, 0x69, 0x63, 0x6B, 0x20, 0x96, 0x20, 0xE9,
            ])
        XCTAssertEqual(rows[0].cells, strings("Store", "Name"))
        XCTAssertEqual(rows[1].cells, strings("08", "Natick – é"))
        XCTAssertEqual(reader.warnings.count, 1)
        XCTAssertTrue(
            reader.warnings[0].contains("record 2 (line 2), field 2: not valid UTF-8; decoded as Windows-1252"))
        let (clean, _) = try read(Array("a,ü\n".utf8))
        XCTAssertTrue(clean.warnings.isEmpty)
    }

    func testRaggedRowsAreHandedOverAsTheyAre() throws {
        XCTAssertEqual(try read("a,b,c\n1,2\n1,2,3,4\n").map(\.count), [3, 2, 4])
    }

    func testTinyChunksGiveTheSameRecords() throws {
        let text = "h1,h2\r\n\"x\"\"y\",\"multi\r\nline\"\r\nlong-unquoted-field,z\r\n"
        let whole = try read(text)
        for chunk in [1, 2, 3, 5, 7] {
            XCTAssertEqual(
                try read(text, options: CSVOptions(delimiter: UInt8(ascii: ","), chunkSize: chunk)), whole,
                "chunk \(chunk)")
        }
    }

    /// Issue 20: a lone CR inside quotes at the end of a read chunk was not counted as a line, so
    /// later messages' line numbers were one short; a CRLF split across chunks counts once.
    func testLineNumbersAfterQuotedLineEndsAtEveryChunkBoundary() throws {
        // Line 1 header; record 2 on lines 2-3 (lone CR in quotes); record 3 on lines 4-5 (CRLF
        // in quotes), record 4 on line 6 (LF in quotes, so also 7), record 5 on line 8 (not UTF-8).
        let bytes =
            Array("h1,h2\r\n\"a\rb\",1\r\n\"c\r\nd\",2\r\n\"e\nf\",3\r\nx,".utf8) + [0xE9] + Array("\r\n\"open\r".utf8)
        for chunk in 1...bytes.count {
            let path = try TestPaths.write(bytes, named: "lines.csv", in: directory)
            let reader = try CSVReader(path: path, options: CSVOptions(delimiter: UInt8(ascii: ","), chunkSize: chunk))
            var rows: [Row] = []
            XCTAssertThrowsError(try reader.readRows { rows.append($0) }, "chunk \(chunk)") { error in
                XCTAssertEqual((error as? CSVError)?.line, 9, "chunk \(chunk)")
                XCTAssertTrue(
                    "\(error)".contains(
                        "record 6 (line 9, byte \(bytes.count)): the file ends inside a quoted field opened on line 9"),
                    "chunk \(chunk): \(error)")
            }
            XCTAssertEqual(rows.count, 5, "chunk \(chunk)")
            XCTAssertEqual(reader.warnings.count, 1, "chunk \(chunk)")
            XCTAssertTrue(
                reader.warnings.first?.contains("record 5 (line 8), field 2") == true,
                "chunk \(chunk): \(reader.warnings)")
        }
    }

    func testTextAfterClosingQuoteIsKeptLiterally() throws {
        XCTAssertEqual(try read("\"abc\"def,x\n"), [strings("abcdef", "x")])
    }

    func testLimitsGiveErrorsWithPositions() throws {
        let long = String(repeating: "x", count: 40)
        XCTAssertThrowsError(try read("a,b\n1,\(long)\n", options: CSVOptions(maxFieldBytes: 32))) { error in
            let csvError = error as? CSVError
            XCTAssertEqual(csvError?.record, 2)
            XCTAssertEqual(csvError?.line, 2)
            XCTAssertTrue("\(error)".contains("feed.csv record 2 (line 2, byte"), "\(error)")
            XCTAssertTrue("\(error)".contains("field 2 is longer than 32 bytes"), "\(error)")
        }
        XCTAssertThrowsError(try read("\(long),\(long),\(long)\n", options: CSVOptions(maxRecordBytes: 100))) { error in
            XCTAssertTrue("\(error)".contains("record is longer than 100 bytes"), "\(error)")
        }
        XCTAssertThrowsError(try read("a,b,c,d\n", options: CSVOptions(maxFields: 3))) { error in
            XCTAssertTrue("\(error)".contains("more than 3 fields"), "\(error)")
        }
    }

    /// Issue 20: a size-limit error named the end of the field's read segment; it names the byte
    /// that crosses the limit and that byte's line, whatever the read chunk size.
    func testLimitErrorsNameTheByteWhereTheLimitIsCrossed() throws {
        let long = String(repeating: "x", count: 40)
        let quotedStart = "a,b\n\"x\ny\",\""
        let cases: [(text: String, options: CSVOptions, line: Int, byte: Int, message: String)] = [
            ("a,b\n1,\(long)\n", CSVOptions(maxFieldBytes: 32), 2, 6 + 32, "field 2 is longer than 32 bytes"),
            // Record 2 starts on line 2; its quoted field 2 starts on line 3 and crosses 32 bytes on line 4.
            (
                quotedStart + String(repeating: "y", count: 10) + "\n" + String(repeating: "z", count: 30) + "\"\n",
                CSVOptions(maxFieldBytes: 32), 4, quotedStart.utf8.count + 32, "field 2 is longer than 32 bytes"
            ),
            // Fields 1 and 2 hold 80 bytes; the 21st byte of field 3 (at 82 + 20) crosses 100.
            (
                "\(long),\(long),\(long)\n", CSVOptions(maxRecordBytes: 100), 1, 82 + 20,
                "record is longer than 100 bytes"
            ),
        ]
        for (text, options, line, byte, message) in cases {
            for chunk in [1, 2, 3, 7, 16, 64, options.chunkSize] {
                var chunked = options
                chunked.delimiter = UInt8(ascii: ",")
                chunked.chunkSize = chunk
                XCTAssertThrowsError(try read(text, options: chunked), "chunk \(chunk)") { error in
                    XCTAssertEqual((error as? CSVError)?.byteOffset, byte, "chunk \(chunk): \(error)")
                    XCTAssertEqual((error as? CSVError)?.line, line, "chunk \(chunk): \(error)")
                    XCTAssertTrue(
                        "\(error)".contains("(line \(line), byte \(byte)): \(message)"), "chunk \(chunk): \(error)")
                }
            }
        }
    }

    func testUnterminatedQuoteIsAnError() {
        XCTAssertThrowsError(try read("a,b\n1,\"open\nstill open")) { error in
            XCTAssertTrue("\(error)".contains("ends inside a quoted field opened on line 2"), "\(error)")
        }
    }

    func testUTF16IsRefusedClearly() {
        XCTAssertThrowsError(try read([0xFF, 0xFE, 0x61, 0x00])) { error in
            XCTAssertTrue("\(error)".contains("UTF-16"), "\(error)")
        }
    }

    /// Fields stay bytes in the row until asked for: a consumer reads them without a `String`,
    /// and a row it keeps past its callback keeps its own fields while the reader goes on.
    func testFieldsAreBytesUntilAskedForAndKeptRowsKeepTheirOwn() throws {
        let long = String(repeating: "long field ", count: 30)
        let text = "store,net,note\n01,12.5,\n02,,\"quoted, with comma\"\n03,7,\(long)\n\n04,9,caf\u{E9}\n"
        let (_, rows) = try read(Array(text.utf8), options: CSVOptions(delimiter: UInt8(ascii: ",")))
        XCTAssertEqual(
            rows.map(\.cells),
            [
                strings("store", "net", "note"), strings("01", "12.5", nil), strings("02", nil, "quoted, with comma"),
                strings("03", "7", long), strings(nil), strings("04", "9", "caf\u{E9}"),
            ])
        let second = rows[1]
        XCTAssertEqual(second.width, 3)
        XCTAssertEqual(second.usedWidth, 2)
        XCTAssertEqual(second.withUTF8(at: 1) { Array($0) }, Array("12.5".utf8))
        XCTAssertNil(second.withUTF8(at: 2) { _ in true }, "an empty field has no bytes")
        XCTAssertNil(second.withUTF8(at: 3) { _ in true }, "past the row's end")
        XCTAssertEqual((0..<4).map(second.isEmpty(at:)), [false, false, true, true])
        XCTAssertEqual(second[0], .string("01"))
        XCTAssertEqual(second[5], .empty)
        XCTAssertTrue(rows[4].isBlank)
        XCTAssertFalse(second.isBlank)
        XCTAssertFalse(Row(number: 1, cells: [.empty, .empty, .number(3)]).isBlank, "a value after empty cells")
        XCTAssertTrue(Row(number: 1, cells: [.empty, .empty]).isBlank)
        // The same of CSV text fields: a record of empty fields is blank, one with a value after them is not.
        let (_, gaps) = try read(Array(",,\n,,x\n".utf8), options: CSVOptions(delimiter: UInt8(ascii: ",")))
        XCTAssertEqual(gaps.map(\.isBlank), [true, false])
        XCTAssertEqual(rows[5].withUTF8(at: 2) { String(decoding: $0, as: UTF8.self) }, "caf\u{E9}")
        // Finished cells (XLSX rows, rows made in code) have no field bytes.
        XCTAssertNil(Row(number: 1, cells: [.string("x")]).withUTF8(at: 0) { _ in true })
    }

    /// The fast path for simple records and the state machine give the same rows, warnings and
    /// errors (the fuzz target checks the same on arbitrary bytes, in 1 KiB chunks).
    func testTheFastPathAgreesWithTheStateMachine() throws {
        let long = String(repeating: "x", count: 2000)
        let inputs: [[UInt8]] = [
            Array("a,b\n1,2\n\n3\n4,5,6\n,\n".utf8),
            Array("a,b\r\n1,2\r\n\"q\",3\n4,\"x\"\"y\"\n5,6".utf8),
            Array("a;b\n1;2\n".utf8),
            Array("a,b\n1,\(long)\n2,3\n".utf8),
            Array("a,b\n1,x".utf8) + [0xE9, 0x0A] + Array("2,caf\u{E9}\n3,\"open\n".utf8),
            Array("a,b\n\(String(repeating: "1,", count: 40))\n".utf8),
            // Quotes the fast path reads (whole fields, none inside) and those it leaves alone.
            Array("\"a\",\"b\"\n\"1\",\"\"\n\"x, y\",2\n,\"z\"\n".utf8),
            Array("a,b\n\"x\"\"y\",1\n\"x\"y,2\nx\"y,3\n\"multi\nline\",4\n\"open,5\n".utf8),
            Array("a,b\n\"\(String(repeating: "q", count: 70))\",1\n\"caf\u{E9}\",2\n".utf8),
        ]
        for (index, bytes) in inputs.enumerated() {
            let path = try TestPaths.write(bytes, named: "agree\(index).csv", in: directory)
            let read = FuzzEntryPoints.readCSV(path: path, batchSize: 1)
            XCTAssertEqual(read.fast, read.stateMachine, "input \(index)")
            XCTAssertEqual(read.fast, read.concurrent, "input \(index)")
            XCTAssertEqual(read.fast.numbers.first, 1, "input \(index)")
        }
        // Delimiters a caller may give that the fast path must leave alone (NUL, LF, a byte that
        // can split a UTF-8 sequence), and CRLF line ends, lone CRs and a CR in quotes.
        let crlf = Array("a,b\r\n1,2\r\n\"x\",3\r\n4\r5,6\r\n\"c\rd\",7\r\n".utf8)
        let given: [(bytes: [UInt8], delimiter: UInt8?)] = [
            ([0x61, 0x00, 0x62, 0x0A, 0x31, 0x00, 0x0A, 0x32, 0x00, 0x33], 0x00),
            (Array("a,b\n1,2\n".utf8), 0x0A), (Array("caf\u{E9},x\n\u{E9}\u{E9}\n".utf8), 0xA9), (crlf, nil),
            (crlf + Array(repeating: UInt8(ascii: "x"), count: 1000) + [0x0D], nil),
        ]
        for (index, (bytes, delimiter)) in given.enumerated() {
            let path = try TestPaths.write(bytes, named: "given\(index).csv", in: directory)
            let read = FuzzEntryPoints.readCSV(path: path, delimiter: delimiter, batchSize: 1)
            XCTAssertEqual(read.fast, read.stateMachine, "given \(index)")
            XCTAssertEqual(read.fast, read.concurrent, "given \(index)")
        }
    }

    func testEmptyFileHasNoRows() throws {
        XCTAssertEqual(try read(""), [])
    }

    func testAReadThatIsDoneEndsThereOnEitherPath() throws {
        // Simple records (the fast path), then quoted ones; each file ends inside a quote.
        for text in ["a,b\n1,2\n3,4\n\"open", "\"a\",\"b\"\n\"1\",\"2\"\n\"3\",\"4\"\n\"open"] {
            let path = try TestPaths.write(Array(text.utf8), named: "feed.csv", in: directory)
            let reader = try CSVReader(path: path)
            var rows: [[Cell]] = []
            try reader.readRowsWhile { row in
                rows.append(row.cells)
                return row.number < 2
            }
            XCTAssertEqual(rows, [strings("a", "b"), strings("1", "2")], text)
            XCTAssertThrowsError(try reader.readRows { _ in }, text)
        }
    }
}
