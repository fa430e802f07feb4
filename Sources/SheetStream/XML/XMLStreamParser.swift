import CLibXML2

/// Receives the SAX events of one XML part; subclasses override what they need.
///
/// A handler that finds the content wrong calls `stop(_:)`, which ends the parse with that
/// message. (A class rather than a protocol so that the C callbacks reach it without
/// existential boxing or reference counting on the hot path.)
class SAXHandler {
    fileprivate var context: xmlParserCtxtPtr?
    fileprivate(set) var failure: (message: String, line: Int)?

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) {}
    func endElement(_ name: XMLName) {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    /// Stops the parse; the parser then throws `message` (only the first stop counts).
    final func stop(_ message: String) {
        if failure == nil {
            failure = (message, context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0)
        }
        if let context { xmlStopParser(context) }
    }

    fileprivate final func recordLibraryError(_ message: String, line: Int) {
        if failure == nil { failure = (message, line) }
    }
}

/// A source of bytes that libxml2 pulls from as it parses.
protocol ByteSource: AnyObject {
    /// Fills the buffer with the next bytes; returns 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension ZipEntryStream: ByteSource {}

/// Parses one XML part with libxml2's SAX2 interface, pulling bytes from a `ByteSource` as it
/// goes (an inflating zip entry), so no part is ever held whole.
///
/// Hardened for hostile input: no entity substitution, no DTD loading, no network access, and
/// any DOCTYPE (which OOXML parts never carry, ECMA-376 Part 2 §8.1.4) stops the parse with an
/// error, so billion-laughs and external-entity parts fail before any expansion.
enum XMLStreamParser {
    static func parse(_ source: ByteSource, handler: SAXHandler, file: String, part: String) throws {
        let input = InputBox(source: source)
        var sax = Self.callbacks
        let userData = Unmanaged.passUnretained(handler).toOpaque()
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
            xmlFreeParserCtxt(context)
        }
        handler.context = context
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_HUGE.rawValue))
        let status = withExtendedLifetime((handler, input)) { xmlParseDocument(context) }
        if let error = input.error { throw error }
        if let failure = handler.failure {
            throw XMLError(file: file, part: part, line: failure.line > 0 ? failure.line : nil, message: failure.message)
        }
        if status != 0 || context.pointee.wellFormed == 0 {
            throw XMLError(file: file, part: part, message: "malformed XML")
        }
    }

    /// What libxml2's read callback reaches: the source and the first error it threw.
    private final class InputBox {
        let source: ByteSource
        var error: Error?

        init(source: ByteSource) { self.source = source }

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

    private static func handler(_ context: UnsafeMutableRawPointer) -> Unmanaged<SAXHandler> {
        Unmanaged<SAXHandler>.fromOpaque(context)
    }

    private static let callbacks: xmlSAXHandler = {
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            handler(context)._withUnsafeGuaranteedRef {
                $0.startElement(XMLName(bytes: localName), XMLAttributes(base: attributes, count: Int(attributeCount)))
            }
        }
        sax.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            handler(context)._withUnsafeGuaranteedRef { $0.endElement(XMLName(bytes: localName)) }
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            handler(context)._withUnsafeGuaranteedRef {
                $0.characters(UnsafeBufferPointer(start: text, count: Int(length)))
            }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            handler(context)._withUnsafeGuaranteedRef {
                $0.stop("a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)")
            }
        }
        sax.serror = { context, error in
            guard let context, let error, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
            handler(context)._withUnsafeGuaranteedRef {
                $0.recordLibraryError(message.trimmingTrailingNewlines(), line: Int(error.pointee.line))
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
    /// Parses `entry` of `archive` with `handler`. With `prefetch`, the entry is inflated on a
    /// second thread while this one parses (worth it for worksheets, not for small parts).
    static func parse(_ entry: ZipEntry, in archive: ZipArchive, handler: SAXHandler, prefetch: Bool = false) throws {
        let stream = try archive.stream(entry)
        let source: ByteSource = prefetch ? PrefetchingSource(stream) : stream
        try XMLStreamParser.parse(source, handler: handler, file: archive.path, part: entry.name)
    }
}
