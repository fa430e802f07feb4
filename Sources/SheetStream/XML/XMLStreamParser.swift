import CLibXML2

/// Receives the SAX events of one XML part; subclasses override what they need.
///
/// A handler that finds the content wrong calls `stop(_:)`, which ends the parse with that
/// message; one that has what it came for calls `finish()`, which ends it without an error.
/// (A class rather than a protocol so that the C callbacks reach it without existential boxing
/// or reference counting on the hot path.)
class SAXHandler {
    fileprivate var context: xmlParserCtxtPtr?
    /// How the handler ended the parse early, if it did.
    fileprivate(set) var ending: ParseEnding?

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) {}
    func endElement(_ name: XMLName) {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    /// An element with no attributes that holds only plain text, as `<v>42</v>`, which
    /// `XMLScanner` reports in one call; by default, the three events it stands for.
    func leafElement(_ name: XMLName, _ text: UnsafeBufferPointer<UInt8>) {
        startElement(name, .none)
        if !text.isEmpty { characters(text) }
        endElement(name)
    }

    /// An element whose whole content is one such leaf, as `<c r="B2" s="1"><v>42</v></c>`,
    /// which `XMLScanner` reports in one call; by default, the events it stands for (and none
    /// after a `stop(_:)`).
    func elementWithLeaf(
        _ name: XMLName, _ attributes: XMLAttributes, leaf: XMLName, _ text: UnsafeBufferPointer<UInt8>
    ) {
        startElement(name, attributes)
        guard ending == nil else { return }
        leafElement(leaf, text)
        guard ending == nil else { return }
        endElement(name)
    }

    /// Stops the parse; the parser then throws `message` (only the first stop counts).
    final func stop(_ message: String) {
        if ending == nil {
            ending = .failed(message: message, line: context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0)
        }
        if let context { xmlStopParser(context) }
    }

    /// Ends the parse without an error: the parser returns as if the part ended here.
    final func finish() {
        if ending == nil { ending = .finished }
        if let context { xmlStopParser(context) }
    }

    fileprivate final func recordLibraryError(_ message: String, line: Int) {
        if ending == nil { ending = .failed(message: message, line: line) }
    }
}

/// Why a handler ended a parse before the part's end.
enum ParseEnding {
    /// The content was wrong: the parser throws the message, naming the line when known.
    case failed(message: String, line: Int)
    /// The handler had what it came for.
    case finished
}

/// A source of bytes that libxml2 pulls from as it parses.
protocol ByteSource: AnyObject {
    /// Fills the buffer with the next bytes; returns 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ZipEntryStream: ByteSource {}

/// Parses one XML part with libxml2's SAX2 interface, pulling bytes from a `ByteSource` as it
/// goes (an inflating zip entry), so no part is ever held whole. Used for the small parts of a
/// workbook and for worksheets in encodings other than UTF-8; `XMLScanner` reads the rest.
///
/// Hardened for hostile input: no entity substitution, no DTD loading, no network access, and
/// any DOCTYPE (which OOXML parts never carry, ECMA-376 Part 2 §8.1.4) stops the parse with an
/// error, so billion-laughs and external-entity parts fail before any expansion.
enum XMLStreamParser {
    static func parse(_ source: ByteSource, handler: SAXHandler, file: String, part: String) throws {
        let input = InputBox(source: source)
        let session = Session(handler: handler)
        var sax = Self.callbacks
        let userData = Unmanaged.passUnretained(session).toOpaque()
        let inputData = Unmanaged.passUnretained(input).toOpaque()
        guard
            let context = xmlCreateIOParserCtxt(
                &sax, userData,
                { inputData, buffer, length in
                    guard let inputData, let buffer, length > 0 else { return 0 }
                    return Unmanaged<InputBox>.fromOpaque(inputData)._withUnsafeGuaranteedRef {
                        $0.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(length)))
                    }
                }, nil, inputData, XML_CHAR_ENCODING_NONE)
        else {
            if let error = input.error { throw error }
            throw XMLError(file: file, part: part, message: "libxml2 could not create a parser")
        }
        defer {
            handler.context = nil
            // An entity declaration makes libxml2 build a document for it even in SAX mode
            // (before the DOCTYPE is refused): the context does not free it.
            if let document = context.pointee.myDoc {
                xmlFreeDoc(document)
                context.pointee.myDoc = nil
            }
            xmlFreeParserCtxt(context)
        }
        handler.context = context
        xmlCtxtUseOptions(
            context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_HUGE.rawValue))
        var contextFreeErrors: Int32 = 0
        CLibXML2_countGenericErrors(&contextFreeErrors)
        let status = withExtendedLifetime((session, input)) { xmlParseDocument(context) }
        CLibXML2_restoreGenericErrors()
        if let error = input.error { throw error }
        switch handler.ending {
        case .failed(let message, let line)?:
            throw XMLError(file: file, part: part, line: line > 0 ? line : nil, message: message)
        case .finished?: return
        case nil: break
        }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw XMLError(file: file, part: part, message: "malformed XML")
        }
        // After a byte sequence invalid in the declared encoding, libxml2 says so only to its
        // generic error function and reads on in another encoding.
        if contextFreeErrors > 0 {
            throw XMLError(file: file, part: part, message: "the part is not valid in its declared encoding")
        }
        // libxml2 takes a NUL byte after the root element for the end of the input and stops
        // there, well-formed; anything left unread is content after the document's end.
        if let parserInput = context.pointee.input, let current = parserInput.pointee.cur,
            let end = parserInput.pointee.end,
            current < end || input.hasMore()
        {
            throw XMLError(
                file: file, part: part, message: "content after the end of the document (a NUL byte or more)")
        }
    }

    /// What libxml2's read callback reaches: the source and the first error it threw.
    private final class InputBox {
        let source: ByteSource
        var error: Error?

        init(source: ByteSource) { self.source = source }

        /// Whether the source still has bytes libxml2 did not ask for.
        func hasMore() -> Bool {
            guard error == nil else { return false }
            var probe: UInt8 = 0
            return withUnsafeMutableBytes(of: &probe) { (try? source.read(into: $0)) ?? 0 } > 0
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) -> Int32 {
            guard error == nil else { return -1 }
            do {
                return Int32(try source.read(into: buffer))
            } catch {
                self.error = error
                return -1
            }
        }
    }

    /// What the callbacks reach: the handler, and storage for converting attributes.
    private final class Session {
        let handler: SAXHandler
        var attributes = TagItemBuffer<XMLAttribute>()

        init(handler: SAXHandler) { self.handler = handler }
        deinit { attributes.deallocate() }

        /// Converts libxml2's SAX2 attribute layout (five pointers per attribute: local name,
        /// prefix, URI, value start, value end).
        func attributes(_ base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int) -> XMLAttributes {
            attributes.removeAll()
            guard let base else { return .none }
            for index in 0..<count {
                let slot = base + index * 5
                guard let local = slot[0], let start = slot[3], let end = slot[4] else { continue }
                attributes.append(
                    XMLAttribute(
                        name: XMLName(cString: local), namespaced: slot[2] != nil,
                        value: UnsafeBufferPointer(start: start, count: end - start)))
            }
            return attributes.attributes
        }
    }

    private static func session(_ context: UnsafeMutableRawPointer) -> Unmanaged<Session> {
        Unmanaged<Session>.fromOpaque(context)
    }

    private static let callbacks: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            session(context)._withUnsafeGuaranteedRef {
                $0.handler.startElement(
                    XMLName(cString: localName), $0.attributes(attributes, count: Int(attributeCount)))
            }
        }
        sax.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            session(context)._withUnsafeGuaranteedRef { $0.handler.endElement(XMLName(cString: localName)) }
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            session(context)._withUnsafeGuaranteedRef {
                $0.handler.characters(UnsafeBufferPointer(start: text, count: Int(length)))
            }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            session(context)._withUnsafeGuaranteedRef {
                $0.handler.stop(
                    "a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)"
                )
            }
        }
        sax.serror = { context, error in
            // Namespace errors (an xmlns value that is not a valid URI, an undeclared prefix) are
            // not well-formedness errors: the data reads the same, and XMLScanner does not check them.
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue,
                error.pointee.domain != Int32(XML_FROM_NAMESPACE.rawValue)
            else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
            session(context)._withUnsafeGuaranteedRef {
                $0.handler.recordLibraryError(message.trimmingTrailingNewlines(), line: Int(error.pointee.line))
            }
        }
        return sax
    }()
}

extension String {
    func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}

/// Streams one zip entry through a SAX handler.
enum XMLPartReader {
    /// Parses `entry` of `archive` with `handler`, using libxml2.
    static func parse(_ entry: ZipEntry, in archive: ZipArchive, handler: SAXHandler) throws {
        try XMLStreamParser.parse(try archive.stream(entry), handler: handler, file: archive.path, part: entry.name)
    }

    /// Which parser reads bulk parts.
    enum BulkParser {
        /// `XMLScanner`, with libxml2 for parts that are not UTF-8.
        case scanner
        /// libxml2 only (to compare the two).
        case libxml2
    }

    /// Parses a bulk part (a worksheet) with `XMLScanner`, inflating it on a second thread while
    /// this one parses; a part that is not UTF-8 is read again with libxml2.
    static func parseBulk(_ entry: ZipEntry, in archive: ZipArchive, handler: SAXHandler, parser: BulkParser = .scanner)
        throws
    {
        if parser == .scanner {
            let scanner = XMLScanner(
                source: PrefetchingSource(try archive.stream(entry)), handler: handler, file: archive.path,
                part: entry.name)
            if try scanner.parse() == .parsed { return }
        }
        try XMLStreamParser.parse(
            PrefetchingSource(try archive.stream(entry)), handler: handler, file: archive.path, part: entry.name)
    }
}
