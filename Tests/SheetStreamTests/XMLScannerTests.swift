import TestSupport
import XCTest

@testable import SheetStream

/// Records every SAX event as text: `<name a="v">`, `</name>`, and the text between tags
/// (consecutive character events joined, as chunking is the parser's business).
private final class RecordingHandler: SAXHandler {
    var events: [String] = []
    private var text = ""

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        flushText()
        var event = "<" + String(decoding: UnsafeBufferPointer(start: name.bytes, count: name.count), as: UTF8.self)
        for index in 0..<attributes.count {
            guard let attribute = attributes.base?[index] else { continue }
            let attributeName = String(
                decoding: UnsafeBufferPointer(start: attribute.name.bytes, count: attribute.name.count), as: UTF8.self)
            event +=
                " \(attribute.namespaced ? "ns:" : "")\(attributeName)=\"\(String(decoding: attribute.value, as: UTF8.self))\""
        }
        events.append(event + ">")
    }

    override func endElement(_ name: XMLName) {
        flushText()
        events.append(
            "</" + String(decoding: UnsafeBufferPointer(start: name.bytes, count: name.count), as: UTF8.self) + ">")
    }

    override func characters(_ chunk: UnsafeBufferPointer<UInt8>) { text += String(decoding: chunk, as: UTF8.self) }

    private func flushText() {
        if !text.isEmpty { events.append(text) }
        text = ""
    }
}

/// Hands out a byte string `chunk` bytes at a time, so that every token boundary is crossed.
private final class ChunkedSource: ByteSource {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    init(_ text: [UInt8], chunk: Int) {
        bytes = text
        self.chunk = chunk
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(chunk, buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes[offset..<(offset + count)].withUnsafeBytes { buffer.copyMemory(from: $0) }
        offset += count
        return count
    }
}

final class XMLScannerTests: XCTestCase {
    private func scan(
        _ xml: String, chunk: Int = 1 << 20, bufferSize: Int = 256 << 10,
        maxMarkupBytes: Int = XMLScanner.maxMarkupBytes
    )
        throws -> [String]
    {
        try scan(Array(xml.utf8), chunk: chunk, bufferSize: bufferSize, maxMarkupBytes: maxMarkupBytes)
    }

    private func scan(
        _ bytes: [UInt8], chunk: Int = 1 << 20, bufferSize: Int = 256 << 10,
        maxMarkupBytes: Int = XMLScanner.maxMarkupBytes
    )
        throws -> [String]
    {
        let handler = RecordingHandler()
        let scanner = XMLScanner(
            source: ChunkedSource(bytes, chunk: chunk), handler: handler, file: "f.xlsx", part: "p.xml",
            bufferSize: bufferSize,
            maxMarkupBytes: maxMarkupBytes)
        let outcome = try scanner.parse()
        XCTAssertEqual(outcome, .parsed)
        return handler.events
    }

    private func scanError(_ xml: String) -> String {
        do {
            _ = try scan(xml)
            return "no error"
        } catch {
            return (error as? XMLError)?.message ?? "\(error)"
        }
    }

    private let everyKindOfMarkup = """
        \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<!-- a comment -->\
        <x:root xmlns:x="urn:x" xmlns="urn:default" a='1' r:id = "rId2">\
        <?pi data?><x:c r="A1" t="s"><v>12</v></x:c><empty/>\
        <t xml:space="preserve"> a &amp; b &lt;c&gt; &quot;q&quot; &apos;s&apos; &#65;&#x263A;\r\nnext\rlast </t>\
        <t><![CDATA[<raw> & \r\n]]>after</t><t>caf\u{E9} \u{1F600}</t></x:root >\n<!-- trailing -->
        """

    func testEventsOfEveryKindOfMarkup() throws {
        XCTAssertEqual(
            try scan(everyKindOfMarkup),
            [
                #"<root a="1" ns:id="rId2">"#, #"<c r="A1" t="s">"#, "<v>", "12", "</v>", "</c>", "<empty>", "</empty>",
                #"<t ns:space="preserve">"#, " a & b <c> \"q\" 's' A\u{263A}\nnext\nlast ", "</t>",
                "<t>", "<raw> & \nafter", "</t>", "<t>", "caf\u{E9} \u{1F600}", "</t>", "</root>",
            ])
    }

    func testTokensSplitAcrossReadsAndBufferRefills() throws {
        let whole = try scan(everyKindOfMarkup)
        for chunk in [1, 2, 3, 7, 64] {
            XCTAssertEqual(try scan(everyKindOfMarkup, chunk: chunk, bufferSize: 64), whole, "chunk \(chunk)")
        }
    }

    func testLeafElementsGiveTheEventsOfTheGeneralPath() throws {
        let document = #"<r><v>1</v><v></v><x:v>2</x:v><v>a&amp;b</v><v>3</v ><v a="1">4</v><v>5<b/></v></r>"#
        let expected = [
            "<r>", "<v>", "1", "</v>", "<v>", "</v>", "<v>", "2", "</v>", "<v>", "a&b", "</v>", "<v>", "3", "</v>",
            #"<v a="1">"#, "4", "</v>", "<v>", "5", "<b>", "</b>", "</v>", "</r>",
        ]
        for chunk in [1, 7, 1 << 20] { XCTAssertEqual(try scan(document, chunk: chunk), expected, "chunk \(chunk)") }
        XCTAssertEqual(scanError("<r><v>1</w></r>"), "the end tag </w> does not match: <v> is open")
        XCTAssertEqual(scanError("<r><v>1</vv></r>"), "the end tag </vv> does not match: <v> is open")
    }

    func testPlainLeavesComeInOneCall() throws {
        final class LeafCounter: SAXHandler {
            var leaves: [String] = []
            override func leafElement(_ name: XMLName, _ text: UnsafeBufferPointer<UInt8>) {
                leaves.append(
                    String(decoding: UnsafeBufferPointer(start: name.bytes, count: name.count), as: UTF8.self) + "="
                        + String(decoding: text, as: UTF8.self))
            }
        }
        let handler = LeafCounter()
        let document = Array(#"<r><v>1</v><x:v>2</x:v><v>a&amp;b</v><v></v></r>"#.utf8)
        _ = try XMLScanner(source: ChunkedSource(document, chunk: 1 << 20), handler: handler, file: "f", part: "p")
            .parse()
        XCTAssertEqual(handler.leaves, ["v=1", "v=2", "v="], "text with a reference takes the general path")
    }

    /// `<c …><v>…</v></c>` comes in one call when the buffer holds it all and the leaf is plain;
    /// every other shape takes the general path; the events are the same either way.
    func testElementsHoldingOneLeafComeInOneCall() throws {
        final class CompactCounter: SAXHandler {
            var compact: [String] = []
            override func elementWithLeaf(
                _ name: XMLName, _ attributes: XMLAttributes, leaf: XMLName, _ text: UnsafeBufferPointer<UInt8>
            ) {
                compact.append(
                    String(decoding: UnsafeBufferPointer(start: name.bytes, count: name.count), as: UTF8.self) + "/"
                        + String(decoding: UnsafeBufferPointer(start: leaf.bytes, count: leaf.count), as: UTF8.self)
                        + "=" + String(decoding: text, as: UTF8.self) + " (\(attributes.count))")
            }
        }
        let document = #"""
            <r><c r="A1" t="s"><v>0</v></c><c><v></v></c><x:c s="1"><v>2</v></x:c><c s="1"><x:v>3</x:v></c>\#
            <c s="1"><v a="1">4</v></c><c s="1"> <v>5</v></c><c s="1"><v>6</v> </c><c s="1"><v>a&amp;b</v></c>\#
            <c s="1"><v>7</v><v>8</v></c><c s="1"><is><t>9</t></is></c><c s="1"><v>10</v></c ><c s="1"><v>11</v ></c>\#
            <c s="1" t="n"><vv>12</vv></c></r>
            """#
        let handler = CompactCounter()
        _ = try XMLScanner(
            source: ChunkedSource(Array(document.utf8), chunk: 1 << 20), handler: handler, file: "f", part: "p"
        ).parse()
        XCTAssertEqual(handler.compact, ["c/v=0 (2)", "c/v= (0)", "c/v=2 (1)", "is/t=9 (0)", "c/vv=12 (2)"])
        let expected = [
            "<r>", #"<c r="A1" t="s">"#, "<v>", "0", "</v>", "</c>", "<c>", "<v>", "</v>", "</c>",
            #"<c s="1">"#, "<v>", "2", "</v>", "</c>", #"<c s="1">"#, "<v>", "3", "</v>", "</c>",
            #"<c s="1">"#, #"<v a="1">"#, "4", "</v>", "</c>", #"<c s="1">"#, " ", "<v>", "5", "</v>", "</c>",
            #"<c s="1">"#, "<v>", "6", "</v>", " ", "</c>", #"<c s="1">"#, "<v>", "a&b", "</v>", "</c>",
            #"<c s="1">"#, "<v>", "7", "</v>", "<v>", "8", "</v>", "</c>",
            #"<c s="1">"#, "<is>", "<t>", "9", "</t>", "</is>", "</c>", #"<c s="1">"#, "<v>", "10", "</v>", "</c>",
            #"<c s="1">"#, "<v>", "11", "</v>", "</c>", #"<c s="1" t="n">"#, "<vv>", "12", "</vv>", "</c>", "</r>",
        ]
        for chunk in [1, 5, 1 << 20] {
            XCTAssertEqual(try scan(document, chunk: chunk), expected, "chunk \(chunk)")
        }
        XCTAssertEqual(
            scanError(#"<r><c s="1"><v>1</v></d></r>"#), "the end tag </d> does not match: <c> is open")
        XCTAssertEqual(
            scanError(#"<r><c s="1" s="2"><v>1</v></c></r>"#), "attribute s appears twice in <c>")
    }

    /// Cells written as worksheets write them, every name one letter, take the scanner's
    /// shortest path; the shapes around it (case, white space, quotes, references, bytes above
    /// ASCII, empty values, empty elements) give what libxml2 gives, in any chunking.
    func testOneLetterCellsGiveLibxml2sEvents() throws {
        let document = #"""
            <r><c r="A1" t="s"><v>0</v></c><C R="B1"><V>1</V></C><c r=""><v>2</v></c><c a="1" A="2"><v>3</v></c>\#
            <c  r="A2"><v>4</v></c><c\#tr="A3"><v>5</v></c><c r='A4'><v>6</v></c>\#
            <c r="caf\#u{E9}"><v>8</v></c><c r="a>b"><v>9</v></c><c r="A6"/><c r="A7" ><v>10</v></c>\#
            <c r = "A8"><v>11</v></c><c s="1" S="2" t="n"><v>12</v></c><c r="\#u{7F}"><v>13</v></c><c><v></v></c>\#
            <c r="A9"><v>14</v></c ><c r="A10"><v>15</v></d></r>
            """#
        let fixed = document.replacingOccurrences(of: "</d>", with: "</c>")
        let libxml2 = RecordingHandler()
        try XMLStreamParser.parse(
            ChunkedSource(Array(fixed.utf8), chunk: 1 << 20), handler: libxml2, file: "f", part: "p")
        XCTAssertEqual(libxml2.events.count, 83)
        for chunk in [1, 3, 1 << 20] {
            XCTAssertEqual(try scan(fixed, chunk: chunk), libxml2.events, "chunk \(chunk)")
        }
        // A reference in a value takes the general path, which keeps it for the reader to decode
        // (libxml2 hands `&#38;` for it).
        XCTAssertEqual(
            try scan(#"<r><c r="A&amp;5"><v>7</v></c></r>"#),
            ["<r>", #"<c r="A&amp;5">"#, "<v>", "7", "</v>", "</c>", "</r>"])
        XCTAssertEqual(scanError(document), "the end tag </d> does not match: <c> is open")
        XCTAssertEqual(scanError(#"<r><c r="A1" r="A1"><v>1</v></c></r>"#), "attribute r appears twice in <c>")
        XCTAssertEqual(
            scanError(#"<r><c r="A1"t="s"><v>1</v></c></r>"#), "attributes of <c> must be separated by white space")
        XCTAssertEqual(
            scanError("<r><c r=\"A\u{1}\"><v>1</v></c></r>"),
            "the value of attribute r in <c> contains the control character 1")
    }

    /// A cell's start cut right after its name and a space, at the end of a full buffer: the
    /// one-letter path reads nothing past the buffer (under AddressSanitizer this read one byte
    /// past it), waits for more input and reads the cell whole.
    func testACellCutAfterItsNameAtTheEndOfAFullBuffer() throws {
        let document = "<r><!--" + String(repeating: "x", count: 51) + #"--><c r="A1"><v>1</v></c></r>"#
        XCTAssertEqual(Array(document.utf8)[61..<64], ArraySlice("<c ".utf8))
        XCTAssertEqual(
            try scan(document, bufferSize: 64), ["<r>", #"<c r="A1">"#, "<v>", "1", "</v>", "</c>", "</r>"])
    }

    /// Text and attribute values are skipped sixteen bytes at a time on x86-64: a special byte
    /// in any lane, and one just past the leaf's 64 bytes, lead where they did a byte at a time.
    func testLongTextsAndValuesPastSixteenBytes() throws {
        let plain = "0123456789abcdefghij"
        let texts = [
            plain, plain + "&amp;x", plain + "\tx", plain + "\rx", plain + "\u{E9}", plain + ">",
            String(repeating: "7", count: 63), String(repeating: "8", count: 64),
            "12345678901234567890123456789012&lt;", plain + "\nx", "0123456&amp;789abcdefghij",
        ]
        let attributes = #"<c a="\#(plain)" b="\#(plain)&amp;" d="\#(plain)\#tx" e="\#(plain)\#u{E9}"/>"#
        let document = "<r>" + texts.map { "<v>\($0)</v>" }.joined() + attributes + "</r>"
        final class LeafCounter: SAXHandler {
            var leaves: [String] = []
            override func leafElement(_ name: XMLName, _ text: UnsafeBufferPointer<UInt8>) {
                leaves.append(String(decoding: text, as: UTF8.self))
            }
        }
        let handler = LeafCounter()
        _ = try XMLScanner(
            source: ChunkedSource(Array(document.utf8), chunk: 1 << 20), handler: handler, file: "f", part: "p"
        ).parse()
        XCTAssertEqual(
            handler.leaves, [plain, plain + "\tx", String(repeating: "7", count: 63), plain + "\nx"],
            "plain ASCII (a tab too) under 64 bytes comes in one call")
        let decoded = [
            plain, plain + "&x", plain + "\tx", plain + "\nx", plain + "\u{E9}", plain + ">",
            String(repeating: "7", count: 63), String(repeating: "8", count: 64), "12345678901234567890123456789012<",
            plain + "\nx", "0123456&789abcdefghij",
        ]
        let expected =
            ["<r>"] + decoded.flatMap { ["<v>", $0, "</v>"] } + [
                #"<c a="\#(plain)" b="\#(plain)&amp;" d="\#(plain)\#tx" e="\#(plain)\#u{E9}">"#, "</c>", "</r>",
            ]
        for chunk in [1, 17, 1 << 20] { XCTAssertEqual(try scan(document, chunk: chunk), expected, "chunk \(chunk)") }
        XCTAssertEqual(scanError(#"<r a="\#(plain)<"/>"#), "the value of attribute a in <r> contains '<'")
        XCTAssertEqual(scanError("<r>\(plain)\u{1}</r>"), "control character 0x1 in text (not allowed in XML)")
    }

    func testShortMarkupAtTheEndOfThePart() throws {
        for chunk in [1, 3, 100] {
            XCTAssertEqual(try scan("<a/><!---->", chunk: chunk), ["<a>", "</a>"])
            XCTAssertEqual(try scan("<a/><?p?>\n", chunk: chunk), ["<a>", "</a>"])
        }
        XCTAssertEqual(scanError("<a/><!--"), "the part ends inside a tag")
        XCTAssertEqual(scanError("<a><![CDA"), "the part ends inside a tag")
    }

    func testATagLongerThanTheBufferGrowsItUpToTheLimit() throws {
        let value = String(repeating: "v", count: 10_000)
        XCTAssertEqual(try scan("<a b=\"\(value)\"/>", chunk: 100, bufferSize: 64), ["<a b=\"\(value)\">", "</a>"])
        XCTAssertThrowsError(try scan("<a b=\"\(value)\"/>", bufferSize: 64, maxMarkupBytes: 4096)) { error in
            XCTAssertEqual(
                (error as? XMLError)?.message, "a tag, comment or CDATA section is longer than 4096 bytes (the limit)")
        }
        // Text is handed over in pieces and needs no room for all of it.
        let text = String(repeating: "t", count: 10_000)
        XCTAssertEqual(try scan("<a>\(text)</a>", bufferSize: 64, maxMarkupBytes: 64), ["<a>", text, "</a>"])
    }

    func testWellFormednessErrors() {
        XCTAssertEqual(scanError("<a><b></a>"), "the end tag </a> does not match: <b> is open")
        XCTAssertEqual(scanError("<a><b>"), "the part ends inside <b>")
        XCTAssertEqual(scanError("<a b=\"1\""), "the part ends inside a tag")
        XCTAssertEqual(scanError(""), "the part has no root element")
        XCTAssertEqual(scanError("<a/><b/>"), "a second root element <b>")
        XCTAssertEqual(scanError("<a/>text"), "text outside the root element")
        XCTAssertEqual(scanError("<a b=1/>"), "the value of attribute b in <a> is not quoted")
        XCTAssertEqual(scanError("<a b=\"<\"/>"), "the value of attribute b in <a> contains '<'")
        XCTAssertEqual(scanError("<a b=\"1\"c=\"2\"/>"), "attributes of <a> must be separated by white space")
        XCTAssertEqual(scanError("<a b/>"), "malformed attribute \"b\" in <a>")
        // Attribute names are unique per tag, one-byte names (a cell's r, s, t) as longer ones;
        // a name repeated in the next tag is no repeat.
        XCTAssertEqual(
            scanError("<c r=\"A1\" s=\"1\" r=\"B1\"/>"), "attribute r appears twice in <c>")
        XCTAssertEqual(
            scanError("<a x:r=\"1\" rr=\"2\" x:r=\"3\"/>"), "attribute x:r appears twice in <a>")
        XCTAssertEqual(
            try scan("<a><c r=\"A1\" s=\"1\" t=\"n\" rs=\"2\"/><c r=\"B1\" s=\"2\"/></a>"),
            ["<a>", "<c r=\"A1\" s=\"1\" t=\"n\" rs=\"2\">", "</c>", "<c r=\"B1\" s=\"2\">", "</c>", "</a>"])
        XCTAssertEqual(
            scanError("<a>x &nbsp; y</a>"), "\"&nbsp;\" is not a predefined entity or a valid character reference")
        XCTAssertEqual(scanError("<a>&#0;</a>"), "\"&#0;\" is not a predefined entity or a valid character reference")
        XCTAssertEqual(scanError("<a>& b</a>"), "\"& b\" is not a predefined entity or a valid character reference")
        XCTAssertEqual(scanError("<a>\u{1}</a>"), "control character 0x1 in text (not allowed in XML)")
        XCTAssertEqual(
            scanError("<a><?xml version=\"1.0\"?></a>"), "an XML declaration is only allowed at the start of the part")
        XCTAssertEqual(scanError("<a><!ELEMENT a></a>"), "unexpected markup \"<!ELEMENT\"")
    }

    /// XML 1.0 §2.4: "]]>" may only end a CDATA section, also when a buffer refill falls inside it.
    func testCDATAEndInTextIsAnError() throws {
        for chunk in [1, 2, 3, 1 << 20] {
            XCTAssertThrowsError(try scan("<a>x]]>y</a>", chunk: chunk, bufferSize: 64), "chunk \(chunk)")
            XCTAssertThrowsError(
                try scan("<a>" + String(repeating: "z", count: 70) + "]]>y</a>", chunk: chunk, bufferSize: 64))
        }
        XCTAssertEqual(scanError("<a>x]]>y</a>"), "\"]]>\" in text (it may only end a CDATA section)")
        XCTAssertEqual(try scan("<a>]] ]> ]]] &gt;</a>"), ["<a>", "]] ]> ]]] >", "</a>"])
        XCTAssertEqual(try scan("<a><![CDATA[x]]></a>"), ["<a>", "x", "</a>"])
    }

    func testInvalidUTF8IsAnError() {
        XCTAssertThrowsError(try scan(Array("<a>".utf8) + [0xC3, 0x28] + Array("</a>".utf8))) { error in
            XCTAssertEqual((error as? XMLError)?.message, "text is not valid UTF-8")
        }
    }

    func testErrorsGiveTheByteOffset() {
        XCTAssertThrowsError(try scan("<root><a></b></root>")) { error in
            XCTAssertEqual("\(error)", "f.xlsx: p.xml byte 9: the end tag </b> does not match: <a> is open")
        }
    }

    func testDoctypeIsRefusedBeforeAnyEntityIsDeclared() {
        let laughs = """
            <?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><lolz>&lol2;</lolz>
            """
        XCTAssertEqual(
            scanError(laughs),
            "a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)")
    }

    func testNestingIsLimited() {
        let deep = String(repeating: "<a>", count: XMLScanner.maxDepth + 1)
        XCTAssertEqual(scanError(deep), "elements nest deeper than \(XMLScanner.maxDepth) (the limit)")
    }

    /// An element holding one leaf takes the one call only where both fit under the limit: its
    /// leaf at the deepest level allowed is read, one level deeper is the nesting error.
    func testElementsHoldingOneLeafAtTheNestingLimit() throws {
        func document(openBefore: Int) -> String {
            "<r>" + String(repeating: "<a>", count: openBefore) + #"<c s="1"><v>7</v></c>"#
                + String(repeating: "</a>", count: openBefore) + "</r>"
        }
        // The root and `openBefore` elements are open at the `<c>`; the leaf lies two deeper.
        let deepest = XMLScanner.maxDepth - 3
        let events = try scan(document(openBefore: deepest))
        XCTAssertEqual(Array(events[(deepest + 1)...].prefix(5)), [#"<c s="1">"#, "<v>", "7", "</v>", "</c>"])
        XCTAssertEqual(
            scanError(document(openBefore: deepest + 1)),
            "elements nest deeper than \(XMLScanner.maxDepth) (the limit)")
    }

    func testOtherEncodingsAreLeftToLibxml2BeforeAnyEvent() throws {
        for document in [
            [0xFF, 0xFE] + Array("<\0a\0/\0>\0".utf8),
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf\u{E9}</a>".utf8),
        ] {
            let handler = RecordingHandler()
            let scanner = XMLScanner(source: ChunkedSource(document, chunk: 3), handler: handler, file: "f", part: "p")
            if case .unsupportedEncoding = try scanner.parse() {} else { XCTFail("expected another encoding") }
            XCTAssertEqual(handler.events, [])
        }
        // Through the workbook reader: the latin-1 worksheet is read by libxml2.
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("latin1_sheet.xlsx"))
        var rows: [Row] = []
        try workbook.readRows(of: try XCTUnwrap(workbook.sheets.first)) { rows.append($0) }
        XCTAssertEqual(rows.map(\.cells), [[.string("Caf\u{E9}"), .number(7)]])
    }

    func testPrefixedWorksheetWithEveryMarkupKind() throws {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("prefixed_sheet.xlsx"))
        var rows: [Row] = []
        try workbook.readRows(of: try XCTUnwrap(workbook.sheets.first)) { rows.append($0) }
        XCTAssertEqual(rows.map(\.number), [1, 3])
        XCTAssertEqual(
            rows[0].cells, [.string("a & b <c> \u{263A}A\nnext"), .string("<raw> & "), .number(12.5), .string("only")])
        XCTAssertEqual(rows[1].cells, [.empty, .string("a & b!")])
    }

    func testWorksheetDoctypeIsRefused() throws {
        let workbook = try XLSXWorkbook(path: TestPaths.fixture("doctype_sheet.xlsx"))
        XCTAssertThrowsError(try workbook.readRows(of: try XCTUnwrap(workbook.sheets.first)) { _ in }) { error in
            XCTAssertEqual(
                "\(error)",
                "\(TestPaths.fixture("doctype_sheet.xlsx")): xl/worksheets/sheet1.xml byte 21: a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)"
            )
        }
    }

    /// Every worksheet of every fixture and corpus file gives the same rows through the scanner
    /// as through libxml2, or the same failure.
    func testScannerAgreesWithLibxml2OnEveryWorksheet() throws {
        var paths = try FileManager.default.contentsOfDirectory(atPath: TestPaths.fixture(""))
            .filter { $0.hasSuffix(".xlsx") }.map { TestPaths.fixture($0) }
        if let corpus = TestPaths.corpus {
            let folder = corpus.appendingPathComponent("calamine").path
            paths += try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasSuffix(".xlsx") || $0.hasSuffix(".xlsm") }.map { folder + "/" + $0 }
        }
        var compared = 0
        for path in paths.sorted() {
            guard let workbook = try? XLSXWorkbook(path: path) else { continue }
            for sheet in workbook.sheets where sheet.kind == "worksheet" {
                func read(_ parser: XMLPartReader.BulkParser) -> ReadOutcome {
                    workbook.worksheetParser = parser
                    var rows: [Row] = []
                    do {
                        try workbook.readRows(of: sheet) { rows.append($0) }
                        return .rows(numbers: rows.map(\.number), cells: rows.map(\.cells))
                    } catch {
                        return .failed(String(describing: type(of: error)))
                    }
                }
                let scanned = read(.scanner)
                let parsed = read(.libxml2)
                XCTAssertEqual(scanned, parsed, "\(path) sheet \(sheet.name)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 20)
    }
}

/// Rows read, or the type of the error that stopped the read.
private enum ReadOutcome: Equatable {
    case rows(numbers: [Int], cells: [[Cell]])
    case failed(String)
}
