import CLibXML2

#if canImport(Glibc)
    import Glibc
#endif

/// The floor for XML parsing: libxml2's SAX2 parser pulling a file through an I/O callback (the
/// same mode SheetStream uses) with no SAX callbacks at all.
func saxFloor(_ path: String) throws {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw FloorError.cannotOpen(path) }
    defer { close(fd) }
    var sax = xmlSAXHandler()
    sax.initialized = XML_SAX2_MAGIC
    let descriptor = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
    descriptor.initialize(to: fd)
    defer { descriptor.deallocate() }
    let context = xmlCreateIOParserCtxt(
        &sax, nil,
        { input, buffer, length in
            guard let input, let buffer else { return -1 }
            return Int32(read(input.load(as: Int32.self), buffer, Int(length)))
        }, nil, descriptor, XML_CHAR_ENCODING_NONE)
    guard let context else { return }
    defer { xmlFreeParserCtxt(context) }
    xmlCtxtUseOptions(context, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_HUGE.rawValue))
    xmlParseDocument(context)
}

enum FloorError: Error {
    case cannotOpen(String)
}
