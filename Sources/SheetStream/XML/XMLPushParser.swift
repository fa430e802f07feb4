import CLibXML2

/// Receives the SAX events of one XML part.
protocol SAXHandler: AnyObject {
    func startElement(_ name: XMLName, _ attributes: XMLAttributes)
    func endElement(_ name: XMLName)
    func characters(_ text: UnsafeBufferPointer<UInt8>)
}

/// A libxml2 SAX2 push parser fed with chunks as they are inflated, so no part is ever held whole.
///
/// Hardened for hostile input: no entity substitution, no DTD loading, no network access, and
/// any DOCTYPE (which OOXML parts never carry, ECMA-376 Part 2 §8.1.4) stops the parse with an
/// error, so billion-laughs and external-entity parts fail before any expansion.
final class XMLPushParser {
    private let context: xmlParserCtxtPtr
    private let box: CallbackBox
    private let file: String
    private let part: String

    /// Creates a parser for the part `part` of `file`, delivering events to `handler`.
    init(handler: SAXHandler, file: String, part: String) throws {
        self.file = file
        self.part = part
        box = CallbackBox(handler: handler)
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        sax.startElementNs = { context, localName, _, _, _, _, attributeCount, _, attributes in
            guard let context, let localName else { return }
            let box = Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue()
            box.handler.startElement(
                XMLName(bytes: localName), XMLAttributes(base: attributes, count: Int(attributeCount)))
        }
        sax.endElementNs = { context, localName, _, _ in
            guard let context, let localName else { return }
            Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue().handler.endElement(XMLName(bytes: localName))
        }
        let characters: charactersSAXFunc = { context, text, length in
            guard let context, let text, length > 0 else { return }
            Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue().handler.characters(
                UnsafeBufferPointer(start: text, count: Int(length)))
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.internalSubset = { context, _, _, _ in
            guard let context else { return }
            Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue().stop(
                "a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)")
        }
        sax.serror = { context, error in
            guard let context, let error else { return }
            let box = Unmanaged<CallbackBox>.fromOpaque(context).takeUnretainedValue()
            guard box.failure == nil, error.pointee.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
            let message = error.pointee.message.map { String(cString: $0) } ?? "XML error \(error.pointee.code)"
            box.failure = (message.trimmingTrailingNewlines(), Int(error.pointee.line))
        }
        let userData = Unmanaged.passUnretained(box).toOpaque()
        guard let created = xmlCreatePushParserCtxt(&sax, userData, nil, 0, part) else {
            throw XMLError(file: file, part: part, message: "libxml2 could not create a parser")
        }
        context = created
        box.context = created
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue))
    }

    deinit {
        xmlFreeParserCtxt(context)
    }

    /// Parses the next chunk of the part.
    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        guard chunk.count > 0, let base = chunk.baseAddress else { return }
        var offset = 0
        while offset < chunk.count {
            let length = min(chunk.count - offset, Int(Int32.max))
            let status = xmlParseChunk(context, (base + offset).assumingMemoryBound(to: CChar.self), Int32(length), 0)
            try check(status)
            offset += length
        }
    }

    /// Ends the part, reporting an error if it is incomplete or malformed.
    func finish() throws {
        try check(xmlParseChunk(context, nil, 0, 1))
        if context.pointee.wellFormed == 0 {
            throw XMLError(file: file, part: part, message: "malformed XML")
        }
    }

    /// Stops the parse from inside a handler callback; the current `feed` then throws `message`.
    func stop(_ message: String) { box.stop(message) }

    private func check(_ status: Int32) throws {
        if let failure = box.failure {
            throw XMLError(file: file, part: part, line: failure.line > 0 ? failure.line : nil, message: failure.message)
        }
        if status != 0 {
            throw XMLError(file: file, part: part, message: "malformed XML (libxml2 error \(status))")
        }
    }

    /// What the C callbacks reach through libxml2's user-data pointer.
    private final class CallbackBox {
        let handler: SAXHandler
        var context: xmlParserCtxtPtr?
        var failure: (message: String, line: Int)?

        init(handler: SAXHandler) { self.handler = handler }

        func stop(_ message: String) {
            if failure == nil {
                failure = (message, context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0)
            }
            if let context { xmlStopParser(context) }
        }
    }
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
    /// Reads the entry `entry` of `archive` through `handler`; `parser` is handed to `configure`
    /// first so the handler can stop it.
    static func parse(
        _ entry: ZipEntry, in archive: ZipArchive, handler: SAXHandler, chunkSize: Int = 256 << 10,
        configure: (XMLPushParser) -> Void = { _ in }
    ) throws {
        let parser = try XMLPushParser(handler: handler, file: archive.path, part: entry.name)
        configure(parser)
        let stream = try archive.stream(entry)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try stream.read(into: buffer)
            if count == 0 { break }
            try parser.feed(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        try parser.finish()
    }
}
