import ArgumentParser
import CLibXML2

#if canImport(Glibc)
import Glibc
#endif

/// The floor for XML parsing: libxml2's push parser over a file with no SAX callbacks at all.
struct SAXFloor: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sax-floor", abstract: "(internal) Parse an XML file with libxml2 SAX and no callbacks.")

    @Argument var path: String

    func run() throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw ValidationError("cannot open \(path)") }
        defer { close(fd) }
        var sax = xmlSAXHandler()
        sax.initialized = XML_SAX2_MAGIC
        guard let context = xmlCreatePushParserCtxt(&sax, nil, nil, 0, path) else { return }
        defer { xmlFreeParserCtxt(context) }
        xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue))
        var buffer = [CChar](repeating: 0, count: 256 << 10)
        while true {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got <= 0 { break }
            _ = buffer.withUnsafeBufferPointer { xmlParseChunk(context, $0.baseAddress, Int32(got), 0) }
        }
        xmlParseChunk(context, nil, 0, 1)
    }
}
