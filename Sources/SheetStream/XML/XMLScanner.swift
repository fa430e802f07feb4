#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif
#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Reads one XML part as a stream of SAX events for a `SAXHandler`, for the bulk parts of a
/// workbook (worksheets): about twice as fast as libxml2 on sheet XML, in a buffer that
/// only grows to hold the longest single tag.
///
/// It is a non-validating parser that still refuses what is not well-formed: unclosed or
/// mismatched tags, text outside the root element, malformed attributes, control characters,
/// invalid UTF-8 and undefined entities are errors with their byte offset. Names are reported
/// by local name (the part after any prefix), which is how the handlers match them; namespace
/// declarations are not reported as attributes.
///
/// Hardened for hostile input like `XMLStreamParser`: any DOCTYPE is an error, so no entity is
/// ever declared or expanded; only the five predefined entities and character references are
/// decoded; tags, comments and CDATA sections are limited to `maxMarkupBytes`; nesting to
/// `maxDepth`.
///
/// Only UTF-8 (and ASCII) parts are read; `parse()` reports any other declared encoding before
/// it hands over any event, so the caller can read the part with libxml2 instead.
final class XMLScanner {
    /// What `parse()` found.
    enum Outcome: Equatable {
        case parsed
        /// The part is not UTF-8; nothing was reported to the handler.
        case unsupportedEncoding(String)
    }

    /// The longest tag, comment, processing instruction or CDATA section accepted by default.
    static let maxMarkupBytes = 16 << 20
    /// The deepest element nesting accepted.
    static let maxDepth = 4096

    private let source: ByteSource
    private let handler: SAXHandler
    private let file: String
    private let part: String
    private let markupLimit: Int

    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The next byte to read, and the end of the bytes read so far.
    private var position = 0
    private var end = 0
    private var sourceExhausted = false
    /// Bytes of the part dropped from the front of the buffer (for error offsets).
    private var discarded = 0

    /// The growable buffers, behind one pointer (see `Scratch`).
    private let scratch = UnsafeMutablePointer<Scratch>.allocate(capacity: 1)
    /// Where each open element's qualified name ends in `scratch.openNames`
    /// (`openNameEnds[0]` is 0, the start of the first).
    private let openNameEnds = UnsafeMutablePointer<Int>.allocate(capacity: XMLScanner.maxDepth + 1)
    /// Where the local part of each open element's name starts, from the start of its name.
    private let openLocalOffsets = UnsafeMutablePointer<Int>.allocate(capacity: XMLScanner.maxDepth + 1)
    private var depth = 0
    private var rootSeen = false

    /// The scanner's growable buffers. They sit behind an `UnsafeMutablePointer` rather than
    /// in stored properties because mutating a class's stored struct through a call that may
    /// allocate costs a dynamic exclusivity check (`swift_beginAccess`) per access: about half
    /// of a sheet read when SheetStream was built without `-enforce-exclusivity=unchecked`.
    /// Only this scanner touches them, from one thread.
    private struct Scratch {
        /// The qualified names of the open elements, back to back.
        var openNames = ByteBuffer(capacity: 256)
        var attributes = TagItemBuffer<XMLAttribute>()
        var decoded = ByteBuffer()
        /// The qualified names of the current start tag's attributes (byte ranges of the buffer)
        /// longer than one byte; the one-byte names (a worksheet's `r`, `s`, `t`) are a bit set
        /// of the tag's own (`OneByteNames`).
        var attributeNames = TagItemBuffer<Range<Int>>()
    }

    /// A set of byte values, 256 bits.
    private struct OneByteNames {
        private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        /// Adds `byte`; false when it was there already.
        @inline(__always) mutating func insert(_ byte: UInt8) -> Bool {
            let bit = UInt64(1) << (byte & 63)
            let before: UInt64
            switch byte >> 6 {
            case 0: (before, words.0) = (words.0, words.0 | bit)
            case 1: (before, words.1) = (words.1, words.1 | bit)
            case 2: (before, words.2) = (words.2, words.2 | bit)
            default: (before, words.3) = (words.3, words.3 | bit)
            }
            return before & bit == 0
        }
    }

    init(
        source: ByteSource, handler: SAXHandler, file: String, part: String, bufferSize: Int = 256 << 10,
        maxMarkupBytes: Int = XMLScanner.maxMarkupBytes
    ) {
        self.source = source
        self.handler = handler
        self.file = file
        self.part = part
        markupLimit = max(maxMarkupBytes, 64)
        capacity = min(max(bufferSize, 64), markupLimit)
        buffer = .allocate(capacity: capacity)
        scratch.initialize(to: Scratch())
        openNameEnds[0] = 0
    }

    deinit {
        buffer.deallocate()
        scratch.pointee.openNames.deallocate()
        scratch.pointee.attributes.deallocate()
        scratch.pointee.attributeNames.deallocate()
        scratch.pointee.decoded.deallocate()
        scratch.deinitialize(count: 1)
        scratch.deallocate()
        openNameEnds.deallocate()
        openLocalOffsets.deallocate()
    }

    /// Parses the whole part, handing every event to the handler, or up to where the handler
    /// finished; throws the first well-formedness error, read error, or message the handler
    /// stopped with.
    func parse() throws -> Outcome {
        if let encoding = try readDeclaration() { return .unsupportedEncoding(encoding) }
        while true {
            if position == end {
                guard try fill() else { break }
                continue
            }
            if buffer[position] == UInt8(ascii: "<") { try markup() } else { try text() }
            if let ending = handler.ending {
                guard case .failed(let message, _) = ending else { return .parsed }
                throw XMLError(file: file, part: part, message: message)
            }
        }
        guard rootSeen else { throw error("the part has no root element") }
        guard depth == 0 else { throw error("the part ends inside <\(openName)>") }
        return .parsed
    }

    // MARK: - Input

    /// Reads more input after the bytes not yet consumed (moving those to the front of the
    /// buffer, and growing it when they fill it); false at the end of the input.
    private func fill() throws -> Bool {
        guard !sourceExhausted else { return false }
        if position > 0 {
            let remaining = end - position
            UnsafeMutableRawPointer(buffer).copyMemory(from: buffer + position, byteCount: remaining)
            discarded += position
            position = 0
            end = remaining
        }
        if end == capacity {
            guard capacity < markupLimit else {
                throw error("a tag, comment or CDATA section is longer than \(markupLimit) bytes (the limit)")
            }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: min(capacity * 2, markupLimit))
            larger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = larger
            capacity = min(capacity * 2, markupLimit)
        }
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + end, count: capacity - end))
        guard count > 0 else {
            sourceExhausted = true
            return false
        }
        end += count
        return true
    }

    /// Reads until at least `count` bytes follow `position` or the input ends; whether they do.
    private func ensure(_ count: Int) throws -> Bool {
        while end - position < count {
            guard try fill() else { return false }
        }
        return true
    }

    @inline(__always) private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < end, let found = memchr(buffer + start, Int32(byte), end - start) else { return nil }
        return buffer.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index just past the first `terminator` (a short ASCII sequence) at or after `start`.
    private func find(_ terminator: StaticString, from start: Int) -> Int? {
        let count = terminator.utf8CodeUnitCount
        let last = terminator.utf8Start[count - 1]
        var candidate = start + count - 1
        while let found = find(last, from: candidate) {
            if memcmp(buffer + found - (count - 1), terminator.utf8Start, count) == 0 { return found + 1 }
            candidate = found + 1
        }
        return nil
    }

    // MARK: - Declaration

    /// Skips a UTF-8 byte-order mark and the XML declaration; returns the declared encoding if
    /// it is not UTF-8 (a UTF-16 byte-order mark counts as declaring UTF-16).
    private func readDeclaration() throws -> String? {
        _ = try ensure(5)
        let available = end - position
        if available >= 2, (buffer[0] == 0xFE && buffer[1] == 0xFF) || (buffer[0] == 0xFF && buffer[1] == 0xFE) {
            return "UTF-16"
        }
        if available >= 2, (buffer[0] == 0 && buffer[1] == 0x3C) || (buffer[0] == 0x3C && buffer[1] == 0) {
            return "UTF-16"
        }
        if available >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
        guard try ensure(6), memcmp(buffer + position, "<?xml", 5) == 0, Self.isSpace(buffer[position + 5]) else {
            return nil
        }
        while true {
            if let close = find("?>", from: position) {
                // Between `<?xml` and `?>`.
                let declaration = Array(
                    UnsafeBufferPointer(start: buffer + position + 5, count: close - 2 - (position + 5)))
                position = close
                guard let encoding = try XMLDeclaration.encoding(declaration, error: { self.error($0) }) else {
                    return nil
                }
                return ["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased()) ? nil : encoding
            }
            guard try fill() else { throw error("the XML declaration is not closed") }
        }
    }

    // MARK: - Markup

    /// Reads the markup at `position` (a `<`), reading more input until it is complete.
    @inline(__always) private func markup() throws {
        while true {
            if let next = try scanMarkup() {
                position = next
                return
            }
            guard try fill() else { throw error("the part ends inside a tag") }
        }
    }

    /// Reads the markup at `position` if the buffer holds all of it: the index after it, or nil
    /// (having reported nothing) when more input is needed.
    @inline(__always) private func scanMarkup() throws -> Int? {
        guard end - position >= 2 else { return nil }
        switch buffer[position + 1] {
        case UInt8(ascii: "/"): return try endTag()
        case UInt8(ascii: "?"): return try processingInstruction()
        case UInt8(ascii: "!"): return try declarationOrComment()
        default: return try letterElementWithLeaf() ?? startTag()
        }
    }

    /// Reports `<x a="…" b="…"><y>text</y></x>` at once, as `startTag` and `elementWithLeaf`
    /// would, if the buffer holds all of it and it is written as a worksheet writes nearly every
    /// cell: every name in it one ASCII letter, each attribute one space then `n="value"` with
    /// distinct names and plain values (printable ASCII but `<` and `&`), then the leaf at once
    /// with short plain text and both end tags without white space. The index after it; nil,
    /// having read and reported nothing, for anything else (a longer name costs two reads),
    /// which the general path then reads, checks and reports.
    @inline(__always) private func letterElementWithLeaf() -> Int? {
        let name = position + 1
        var index = position + 2
        guard depth > 0, depth < Self.maxDepth - 1, index < end, Self.isASCIILetter(buffer[name]) else { return nil }
        scratch.pointee.attributes.removeAll()
        // The attributes' letters, a bit each: the low six bits of the 52 letters differ.
        var names: UInt64 = 0
        while buffer[index] == UInt8(ascii: " ") {
            let valueStart = index + 4
            guard valueStart < end else { return nil }
            let letter = buffer[index + 1]
            guard Self.isASCIILetter(letter), buffer[index + 2] == UInt8(ascii: "="),
                buffer[index + 3] == UInt8(ascii: "\""), names & 1 << (letter & 63) == 0
            else { return nil }
            names |= 1 << (letter & 63)
            var close = valueStart
            while close < end, buffer[close] != UInt8(ascii: "\"") {
                guard Self.isPlainValueByte(buffer[close]) else { return nil }
                close += 1
            }
            guard close + 1 < end else { return nil }
            scratch.pointee.attributes.append(
                XMLAttribute(
                    name: XMLName(bytes: buffer + index + 1, count: 1), namespaced: false,
                    value: UnsafeBufferPointer(start: buffer + valueStart, count: close - valueStart)))
            index = close + 1
        }
        // `><y>`, then the text and `</y></x>`.
        let leaf = index + 2
        guard leaf + 1 < end, buffer[index] == UInt8(ascii: ">"), buffer[index + 1] == UInt8(ascii: "<"),
            Self.isASCIILetter(buffer[leaf]), buffer[leaf + 1] == UInt8(ascii: ">"),
            let textEnd = plainShortText(from: leaf + 2), textEnd + 7 < end,
            buffer[textEnd + 1] == UInt8(ascii: "/"), buffer[textEnd + 2] == buffer[leaf],
            buffer[textEnd + 3] == UInt8(ascii: ">"), buffer[textEnd + 4] == UInt8(ascii: "<"),
            buffer[textEnd + 5] == UInt8(ascii: "/"), buffer[textEnd + 6] == buffer[name],
            buffer[textEnd + 7] == UInt8(ascii: ">")
        else { return nil }
        handler.elementWithLeaf(
            XMLName(bytes: buffer + name, count: 1), scratch.pointee.attributes.attributes,
            leaf: XMLName(bytes: buffer + leaf, count: 1),
            UnsafeBufferPointer(start: buffer + leaf + 2, count: textEnd - leaf - 2))
        return textEnd + 8
    }

    private func startTag() throws -> Int? {
        let nameStart = position + 1
        guard let (nameEnd, localStart) = try elementName(at: nameStart) else { return nil }
        var index = nameEnd
        scratch.pointee.attributes.removeAll()
        scratch.pointee.attributeNames.removeAll()
        var oneByteNames = OneByteNames()
        while true {
            var spaced = false
            while index < end, Self.isSpace(buffer[index]) {
                index += 1
                spaced = true
            }
            guard index < end else { return nil }
            switch buffer[index] {
            case UInt8(ascii: ">"):
                // The one-call shapes open one level below this tag, or two.
                if depth > 0, depth < Self.maxDepth {
                    if scratch.pointee.attributes.count == 0,
                        let next = leafElement(
                            qualifiedName: nameStart..<nameEnd, localStart: localStart, textStart: index + 1)
                    {
                        return next
                    }
                    if depth < Self.maxDepth - 1,
                        let next = elementWithLeaf(
                            qualifiedName: nameStart..<nameEnd, localStart: localStart, contentStart: index + 1)
                    {
                        return next
                    }
                }
                try open(qualifiedName: nameStart..<nameEnd, localStart: localStart)
                return index + 1
            case UInt8(ascii: "/"):
                guard index + 1 < end else { return nil }
                guard buffer[index + 1] == UInt8(ascii: ">") else {
                    throw error("'/' not followed by '>' in <\(name(nameStart..<nameEnd))>")
                }
                try open(qualifiedName: nameStart..<nameEnd, localStart: localStart)
                close(localStart: localStart, nameEnd: nameEnd)
                return index + 2
            default:
                guard spaced else {
                    throw error("attributes of <\(name(nameStart..<nameEnd))> must be separated by white space")
                }
                let attributeStart = index
                let attributeNameEnd: Int
                if let plain = plainAttribute(at: index) {
                    (index, attributeNameEnd) = plain
                } else {
                    guard let next = try attribute(at: index, element: nameStart..<nameEnd) else { return nil }
                    index = next
                    attributeNameEnd = scanName(from: attributeStart).end
                }
                try checkUnique(attributeStart..<attributeNameEnd, among: &oneByteNames, element: nameStart..<nameEnd)
            }
        }
    }

    /// The end of the element name at `start` (after a `<`) and where its local part starts,
    /// checked; nil when more input is needed. A name of ASCII letters alone, as every name of
    /// a worksheet is, is valid and has no prefix: told at once, without the general scan.
    @inline(__always) private func elementName(at start: Int) throws -> (end: Int, localStart: Int)? {
        var index = start
        while index < end, Self.isASCIILetter(buffer[index]) { index += 1 }
        guard index < end else { return nil }
        if index > start, Self.endsName(buffer[index]) { return (index, start) }
        let scanned = scanName(from: start)
        guard scanned.end < end else { return nil }
        guard scanned.end > start, scanned.localStart < scanned.end else {
            throw error("a '<' that starts no element")
        }
        try checkName(start..<scanned.end)
        return scanned
    }

    /// Reads the attribute at `start` if it is written as spreadsheet writers write them all,
    /// `name="value"` with an ASCII-letter name and no white space: the index after it, or nil
    /// (having read nothing) for anything else, which `attribute(at:element:)` then reads;
    /// with the index after it, the end of its name.
    @inline(__always) private func plainAttribute(at start: Int) -> (next: Int, nameEnd: Int)? {
        var index = start
        while index < end, Self.isASCIILetter(buffer[index]) { index += 1 }
        let nameEnd = index
        guard nameEnd > start, nameEnd + 1 < end, buffer[nameEnd] == UInt8(ascii: "="),
            buffer[nameEnd + 1] == UInt8(ascii: "\""), nameEnd - start != 5 || memcmp(buffer + start, "xmlns", 5) != 0
        else { return nil }
        var close = skipPlainBytes(
            from: nameEnd + 2, upTo: end, allowingTabsAndLineFeeds: false, stoppingAt: UInt8(ascii: "\""),
            UInt8(ascii: "<"), UInt8(ascii: "&"))
        while close < end, buffer[close] != UInt8(ascii: "\"") {
            // Anything else takes the checked path.
            guard Self.isPlainValueByte(buffer[close]) else { return nil }
            close += 1
        }
        guard close < end else { return nil }
        scratch.pointee.attributes.append(
            XMLAttribute(
                name: XMLName(bytes: buffer + start, count: nameEnd - start), namespaced: false,
                value: UnsafeBufferPointer(start: buffer + nameEnd + 2, count: close - nameEnd - 2)))
        return (close + 1, nameEnd)
    }

    /// Reads one `name="value"` at `index` into `attributes`; the index after it, or nil when
    /// more input is needed.
    private func attribute(at start: Int, element: Range<Int>) throws -> Int? {
        let (nameEnd, localStart, afterSpace) = scanNameAndSpace(from: start)
        var index = afterSpace
        guard index < end else { return nil }
        guard nameEnd > start, localStart < nameEnd, buffer[index] == UInt8(ascii: "=") else {
            throw error("malformed attribute \"\(name(start..<max(nameEnd, start)))\" in <\(name(element))>")
        }
        try checkName(start..<nameEnd)
        index += 1
        while index < end, Self.isSpace(buffer[index]) { index += 1 }
        guard index < end else { return nil }
        let quote = buffer[index]
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("the value of attribute \(name(start..<nameEnd)) in <\(name(element))> is not quoted")
        }
        // Values are short: a byte loop beats memchr, and checks for '<', control characters,
        // references and non-ASCII bytes in the same pass.
        var close = index + 1
        var special = false
        while close < end, buffer[close] != quote {
            let byte = buffer[close]
            if byte == UInt8(ascii: "<") {
                throw error("the value of attribute \(name(start..<nameEnd)) in <\(name(element))> contains '<'")
            }
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                throw error(
                    "the value of attribute \(name(start..<nameEnd)) in <\(name(element))> contains the control character \(byte)"
                )
            }
            special = special || byte >= 0x80 || byte == UInt8(ascii: "&")
            close += 1
        }
        guard close < end else { return nil }
        let value = UnsafeBufferPointer(start: buffer + index + 1, count: close - index - 1)
        if special {
            guard UTF8Text.isValidUTF8(value) else {
                throw error("the value of attribute \(name(start..<nameEnd)) in <\(name(element))> is not valid UTF-8")
            }
            // References are checked now, though they are decoded only when the value is read.
            scratch.pointee.decoded.removeAll()
            do {
                try XMLReferences.decode(value, into: &scratch.pointee.decoded)
            } catch {
                throw self.error("the value of attribute \(name(start..<nameEnd)) in <\(name(element))>: \(error)")
            }
        }
        let prefixed = localStart > start
        let declaredName = prefixed ? localStart - 1 : nameEnd
        let isNamespaceDeclaration = declaredName - start == 5 && memcmp(buffer + start, "xmlns", 5) == 0
        if !isNamespaceDeclaration {
            scratch.pointee.attributes.append(
                XMLAttribute(
                    name: XMLName(bytes: buffer + localStart, count: nameEnd - localStart), namespaced: prefixed,
                    value: value))
        }
        return close + 1
    }

    /// The end of the name at `start` and where its local part starts: after the colon of a
    /// well-formed QName (`prefix:local`); at the name's start for a name that is no QName
    /// (`left:`, `:a`, `a:b:c`), which libxml2 too reads as a local name after a namespace error.
    @inline(__always) private func scanName(from start: Int) -> (end: Int, localStart: Int) {
        var index = start
        var colons = 0
        var colon = start
        while index < end, !Self.endsName(buffer[index]) {
            if buffer[index] == UInt8(ascii: ":") {
                colons += 1
                colon = index
            }
            index += 1
        }
        guard colons == 1, colon > start, colon + 1 < index else { return (index, start) }
        return (index, colon + 1)
    }

    /// Reports `<name>text</name>` at once if the buffer holds all of it and the text is short
    /// and plain (as in every `<v>` of a sheet): the index after it, or nil (having reported
    /// nothing) for anything else, which then takes the general path.
    @inline(__always) private func leafElement(qualifiedName: Range<Int>, localStart: Int, textStart: Int) -> Int? {
        guard let textEnd = plainShortText(from: textStart), let next = plainEndTag(of: qualifiedName, at: textEnd)
        else { return nil }
        handler.leafElement(
            XMLName(bytes: buffer + localStart, count: qualifiedName.upperBound - localStart),
            UnsafeBufferPointer(start: buffer + textStart, count: textEnd - textStart))
        return next
    }

    /// The index after `</name>` at `start` (`name`, the bytes of a qualified name in the
    /// buffer, closed with no white space) if the buffer holds it; nil for anything else.
    @inline(__always) private func plainEndTag(of name: Range<Int>, at start: Int) -> Int? {
        let closing = start + 2 + name.count
        guard closing < end, buffer[start] == UInt8(ascii: "<"), buffer[start + 1] == UInt8(ascii: "/"),
            buffer[closing] == UInt8(ascii: ">"),
            Self.equal(buffer + start + 2, buffer + name.lowerBound, count: name.count)
        else { return nil }
        return closing + 1
    }

    /// Reports `<name …><leaf>text</leaf></name>` at once if the buffer holds all of it, the
    /// leaf's name is ASCII letters and its text is short and plain (as in nearly every `<c>` of
    /// a sheet): the index after it, or nil (having reported nothing) for anything else, which
    /// then takes the general path. The start tag's attributes are read and checked already.
    @inline(__always) private func elementWithLeaf(qualifiedName: Range<Int>, localStart: Int, contentStart: Int)
        -> Int?
    {
        let leafNameStart = contentStart + 1
        guard leafNameStart < end, buffer[contentStart] == UInt8(ascii: "<") else { return nil }
        var index = leafNameStart
        while index < end, Self.isASCIILetter(buffer[index]) { index += 1 }
        let leafName = leafNameStart..<index
        guard !leafName.isEmpty, index < end, buffer[index] == UInt8(ascii: ">"),
            let textEnd = plainShortText(from: index + 1), let leafEnd = plainEndTag(of: leafName, at: textEnd),
            let next = plainEndTag(of: qualifiedName, at: leafEnd)
        else { return nil }
        handler.elementWithLeaf(
            XMLName(bytes: buffer + localStart, count: qualifiedName.upperBound - localStart),
            scratch.pointee.attributes.attributes,
            leaf: XMLName(bytes: buffer + leafNameStart, count: leafName.count),
            UnsafeBufferPointer(start: buffer + index + 1, count: textEnd - index - 1))
        return next
    }

    /// Scans the name at `start` and the white space after it: where the name ends, where its
    /// local part starts, and the index after the white space.
    @inline(__always) private func scanNameAndSpace(from start: Int) -> (nameEnd: Int, localStart: Int, next: Int) {
        let scanned = scanName(from: start)
        var index = scanned.end
        while index < end, Self.isSpace(buffer[index]) { index += 1 }
        return (scanned.end, scanned.localStart, index)
    }

    @inline(__always) private func open(qualifiedName: Range<Int>, localStart: Int) throws {
        if depth == 0 {
            guard !rootSeen else { throw error("a second root element <\(name(qualifiedName))>") }
            rootSeen = true
        }
        guard depth < Self.maxDepth else { throw error("elements nest deeper than \(Self.maxDepth) (the limit)") }
        scratch.pointee.openNames.append(
            UnsafeBufferPointer(start: buffer + qualifiedName.lowerBound, count: qualifiedName.count))
        depth += 1
        openNameEnds[depth] = scratch.pointee.openNames.count
        openLocalOffsets[depth] = localStart - qualifiedName.lowerBound
        handler.startElement(
            XMLName(bytes: buffer + localStart, count: qualifiedName.upperBound - localStart),
            scratch.pointee.attributes.attributes)
    }

    @inline(__always) private func close(localStart: Int, nameEnd: Int) {
        depth -= 1
        scratch.pointee.openNames.removeLast(scratch.pointee.openNames.count - openNameEnds[depth])
        handler.endElement(XMLName(bytes: buffer + localStart, count: nameEnd - localStart))
    }

    private func endTag() throws -> Int? {
        let nameStart = position + 2
        if depth > 0 {
            // The usual case, `</name>` closing the innermost element: compare, don't scan.
            let openStart = openNameEnds[depth - 1]
            let length = openNameEnds[depth] - openStart
            let closing = nameStart + length
            if closing < end, buffer[closing] == UInt8(ascii: ">"),
                Self.equal(scratch.pointee.openNames.base + openStart, buffer + nameStart, count: length)
            {
                close(localStart: nameStart + openLocalOffsets[depth], nameEnd: closing)
                return closing + 1
            }
        }
        let (nameEnd, localStart, index) = scanNameAndSpace(from: nameStart)
        guard index < end else { return nil }
        guard buffer[index] == UInt8(ascii: ">"), nameEnd > localStart else {
            throw error("malformed end tag </\(name(nameStart..<nameEnd))")
        }
        guard depth > 0, openNameEnds[depth] - openNameEnds[depth - 1] == nameEnd - nameStart,
            Self.equal(
                scratch.pointee.openNames.base + openNameEnds[depth - 1], buffer + nameStart, count: nameEnd - nameStart
            )
        else {
            let expected = depth == 0 ? "no open element" : "<\(openName)> is open"
            throw error("the end tag </\(name(nameStart..<nameEnd))> does not match: \(expected)")
        }
        close(localStart: localStart, nameEnd: nameEnd)
        return index + 1
    }

    private func processingInstruction() throws -> Int? {
        guard let next = find("?>", from: position + 2) else { return nil }
        // `<?target content?>`: the target an XML name other than `xml`, then space or the end.
        let targetEnd = min(scanName(from: position + 2).end, next - 2)
        guard targetEnd > position + 2 else { throw error("a processing instruction has no target") }
        try checkName((position + 2)..<targetEnd)
        if targetEnd - position - 2 == 3,
            String(decoding: UnsafeBufferPointer(start: buffer + position + 2, count: 3), as: UTF8.self).lowercased()
                == "xml"
        {
            throw error("an XML declaration is only allowed at the start of the part")
        }
        guard targetEnd == next - 2 || Self.isSpace(buffer[targetEnd]) else {
            throw error("a processing instruction's target is not followed by white space")
        }
        try checkCharacters(targetEnd..<(next - 2), in: "a processing instruction")
        return next
    }

    /// Checks that the bytes of `range` (a comment or processing instruction) are XML
    /// characters: no control characters but tab, LF and CR, and valid UTF-8.
    private func checkCharacters(_ range: Range<Int>, in what: String) throws {
        var nonASCII = false
        for index in range {
            let byte = buffer[index]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                throw error("\(what) contains the control character \(byte)")
            }
            if byte >= 0x80 { nonASCII = true }
        }
        if nonASCII, !UTF8Text.isValidUTF8(UnsafeBufferPointer(start: buffer + range.lowerBound, count: range.count)) {
            throw error("\(what) is not valid UTF-8")
        }
    }

    private func declarationOrComment() throws -> Int? {
        let start = buffer + position
        if end - position >= 4, memcmp(start, "<!--", 4) == 0 {
            guard let next = find("-->", from: position + 4) else { return nil }
            let content = (position + 4)..<(next - 3)
            try checkCharacters(content, in: "a comment")
            // XML 1.0 §2.5: no "--" inside a comment, and no '-' just before its end.
            if content.contains(where: {
                buffer[$0] == UInt8(ascii: "-") && ($0 + 1 == content.upperBound || buffer[$0 + 1] == UInt8(ascii: "-"))
            }) {
                throw error("a comment contains \"--\" or ends with '-'")
            }
            return next
        }
        // Too short to tell a CDATA section from a DOCTYPE yet: read more.
        guard end - position >= 9 else { return nil }
        if memcmp(start, "<![CDATA[", 9) == 0 {
            guard let next = find("]]>", from: position + 9) else { return nil }
            guard depth > 0 else { throw error("a CDATA section outside the root element") }
            try emitText(
                UnsafeBufferPointer(start: start + 9, count: next - 3 - position - 9), decodingReferences: false)
            return next
        }
        if memcmp(start, "<!DOCTYPE", 9) == 0 {
            throw error(
                "a DOCTYPE declaration is not allowed in an OOXML part (entity expansion and DTD loading are refused)")
        }
        throw error("unexpected markup \"\(name(position..<(position + 9)))\"")
    }

    // MARK: - Text

    /// Reads the text at `position` up to the next `<`, handing over what the buffer holds and
    /// never splitting a reference, a CR LF pair or a UTF-8 sequence between two events.
    private func text() throws {
        let start = position
        if depth > 0, let next = plainShortText(from: start) {
            handler.characters(UnsafeBufferPointer(start: buffer + start, count: next - start))
            position = next
            return
        }
        if let next = find(UInt8(ascii: "<"), from: start) {
            try emitText(UnsafeBufferPointer(start: buffer + start, count: next - start), decodingReferences: true)
            position = next
        } else if sourceExhausted {
            try emitText(UnsafeBufferPointer(start: buffer + start, count: end - start), decodingReferences: true)
            position = end
        } else {
            let cut = safeCut(from: start)
            if cut > start {
                try emitText(UnsafeBufferPointer(start: buffer + start, count: cut - start), decodingReferences: true)
                position = cut
            } else {
                _ = try fill()
            }
        }
    }

    /// Bytes that end plain text or need a closer look: controls other than tab and line feed
    /// (carriage returns are normalised), `&`, `<` and `>` (which may end a forbidden `]]>`), as
    /// a bit set of the bytes below 64.
    private static let specialTextBytes: UInt64 = 0xFFFF_F9FF | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E

    /// The index of the `<` that ends the short text at `start`, if the text (under 64 bytes,
    /// as cell values are) is plain ASCII needing no check or decoding: one pass instead of a
    /// `memchr` call and a second one over the bytes.
    @inline(__always) private func plainShortText(from start: Int) -> Int? {
        let limit = min(end, start + 64)
        var index = skipPlainBytes(
            from: start, upTo: limit, allowingTabsAndLineFeeds: true, stoppingAt: UInt8(ascii: "&"),
            UInt8(ascii: "<"), UInt8(ascii: ">"))
        while index < limit {
            let byte = buffer[index]
            if byte >= 0x40 {
                guard byte < 0x80 else { return nil }
            } else if Self.specialTextBytes >> byte & 1 != 0 {
                return byte == UInt8(ascii: "<") ? index : nil
            }
            index += 1
        }
        return nil
    }

    /// The index of the first byte from `start` (before `limit`) that the byte loops after it
    /// must look at: a control character (but tab and line feed when allowed), a byte above
    /// ASCII, or one of `first`, `second`, `third`. Sixteen bytes at a time (SSE2, through the
    /// compiler's intrinsics) while the buffer holds them; elsewhere `start`, and the byte loops
    /// do it all. The index may lie past `limit`: none before it.
    @inline(__always) private func skipPlainBytes(
        from start: Int, upTo limit: Int, allowingTabsAndLineFeeds: Bool, stoppingAt first: UInt8, _ second: UInt8,
        _ third: UInt8
    ) -> Int {
        var index = start
        #if arch(x86_64)
            while index < limit, end - index >= 16 {
                let block = UnsafeRawPointer(buffer + index).loadUnaligned(as: __m128i.self)
                // A signed compare: the bytes above ASCII are negative, as those below a space are less.
                var special = _mm_cmplt_epi8(block, _mm_set1_epi8(0x20))
                if allowingTabsAndLineFeeds {
                    let tabsOrLineFeeds = _mm_or_si128(
                        _mm_cmpeq_epi8(block, _mm_set1_epi8(0x09)), _mm_cmpeq_epi8(block, _mm_set1_epi8(0x0A)))
                    special = _mm_andnot_si128(tabsOrLineFeeds, special)
                }
                let marks = _mm_or_si128(
                    _mm_or_si128(
                        _mm_cmpeq_epi8(block, _mm_set1_epi8(CChar(bitPattern: first))),
                        _mm_cmpeq_epi8(block, _mm_set1_epi8(CChar(bitPattern: second)))),
                    _mm_cmpeq_epi8(block, _mm_set1_epi8(CChar(bitPattern: third))))
                let lanes = _mm_movemask_epi8(_mm_or_si128(special, marks))
                if lanes != 0 { return index + lanes.trailingZeroBitCount }
                index += 16
            }
        #endif
        return index
    }

    /// Where the text from `start` to the end of the buffer can be cut: before a reference that
    /// may be incomplete, a final CR, or an incomplete UTF-8 sequence.
    private func safeCut(from start: Int) -> Int {
        var cut = end
        var index = end - 1
        while index >= max(start, end - XMLReferences.maxLength) {
            if buffer[index] == UInt8(ascii: ";") { break }
            if buffer[index] == UInt8(ascii: "&") {
                cut = index
                break
            }
            index -= 1
        }
        if cut > start, buffer[cut - 1] == UInt8(ascii: "\r") { cut -= 1 }
        // Nor after a `]`, which may begin a `]]>` that text must not contain.
        while cut > start, buffer[cut - 1] == UInt8(ascii: "]") { cut -= 1 }
        var lead = cut - 1
        while lead >= max(start, cut - 4), buffer[lead] & 0xC0 == 0x80 { lead -= 1 }
        if lead >= start, buffer[lead] >= 0xC0 {
            let length = buffer[lead] >= 0xF0 ? 4 : buffer[lead] >= 0xE0 ? 3 : 2
            if lead + length > cut { cut = lead }
        }
        return cut
    }

    /// Hands `text` to the handler, checked and decoded; outside the root element it must be
    /// white space and is dropped.
    private func emitText(_ text: UnsafeBufferPointer<UInt8>, decodingReferences: Bool) throws {
        guard depth > 0 else {
            guard text.allSatisfy(Self.isSpace) else { throw error("text outside the root element") }
            return
        }
        var needsDecoding = false
        var nonASCII = false
        for (index, byte) in text.enumerated() {
            if byte == UInt8(ascii: ">"), decodingReferences, index >= 2, text[index - 1] == UInt8(ascii: "]"),
                text[index - 2] == UInt8(ascii: "]")
            {
                // XML 1.0 §2.4: "]]>" may only end a CDATA section.
                throw error("\"]]>\" in text (it may only end a CDATA section)")
            } else if byte < 0x20 {
                if byte == UInt8(ascii: "\r") {
                    needsDecoding = true
                } else if byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n") {
                    throw error(
                        "control character 0x\(String(byte, radix: 16, uppercase: true)) in text (not allowed in XML)")
                }
            } else if byte == UInt8(ascii: "&") {
                needsDecoding = needsDecoding || decodingReferences
            } else if byte >= 0x80 {
                nonASCII = true
            }
        }
        if nonASCII, !UTF8Text.isValidUTF8(text) { throw error("text is not valid UTF-8") }
        guard needsDecoding else {
            handler.characters(text)
            return
        }
        scratch.pointee.decoded.removeAll()
        do {
            try XMLReferences.decode(
                text, into: &scratch.pointee.decoded, normalizingLineEnds: true, decodingReferences: decodingReferences)
        } catch {
            throw self.error("\"\(error.text)\" is not a predefined entity or a valid character reference")
        }
        handler.characters(scratch.pointee.decoded.bytes)
    }

    // MARK: - Helpers

    @inline(__always) private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    /// Whether an attribute value's byte needs no check or decoding: printable ASCII (0x20 to
    /// 0x7F, told in one compare) but `<` and `&`.
    @inline(__always) private static func isPlainValueByte(_ byte: UInt8) -> Bool {
        byte &- 0x20 < 0x60 && byte != UInt8(ascii: "<") && byte != UInt8(ascii: "&")
    }

    @inline(__always) private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) &- UInt8(ascii: "a") < 26
    }

    @inline(__always) private static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: "=") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// Checks that no earlier attribute of the tag has the same qualified name (XML 1.0 §3.1,
    /// namespace declarations included), and remembers this one: a one-byte name in the tag's
    /// `oneByteNames` (names of different lengths never match), a longer one in
    /// `attributeNames`.
    @inline(__always) private func checkUnique(
        _ range: Range<Int>, among oneByteNames: inout OneByteNames, element: Range<Int>
    ) throws {
        let isNew: Bool
        if range.count == 1 {
            isNew = oneByteNames.insert(buffer[range.lowerBound])
        } else {
            isNew = !scratch.pointee.attributeNames.elements.contains { earlier in
                earlier.count == range.count
                    && Self.equal(buffer + earlier.lowerBound, buffer + range.lowerBound, count: range.count)
            }
            if isNew { scratch.pointee.attributeNames.append(range) }
        }
        guard isNew else { throw duplicateAttribute(range, element: element) }
    }

    private func duplicateAttribute(_ range: Range<Int>, element: Range<Int>) -> XMLError {
        error("attribute \(name(range)) appears twice in <\(name(element))>")
    }

    /// Checks that the bytes of `range` are an XML name (XML 1.0 fifth edition, §2.3: a
    /// NameStartChar, then NameChars) in valid UTF-8, as libxml2 does.
    private func checkName(_ range: Range<Int>) throws {
        // ASCII letters alone, as every name of a worksheet is, make a valid name.
        var letters = range.lowerBound
        while letters < range.upperBound, Self.isASCIILetter(buffer[letters]) { letters += 1 }
        if letters == range.upperBound { return }
        var index = range.lowerBound
        while index < range.upperBound {
            let first = index == range.lowerBound
            let byte = buffer[index]
            if byte < 0x80 {
                let kind = Self.asciiNameKinds[Int(byte)]
                guard kind == 2 || (kind == 1 && !first) else {
                    throw error("\"\(name(range))\" is not a valid XML name")
                }
                index += 1
                continue
            }
            guard
                let (scalar, length) = UTF8Text.scalar(
                    at: index, in: UnsafeBufferPointer(start: buffer, count: range.upperBound))
            else {
                throw error("a name is not valid UTF-8")
            }
            guard Self.isNameCharacter(scalar, start: first) else {
                throw error("\"\(name(range))\" is not a valid XML name")
            }
            index += length
        }
        try checkAfterSecondColon(range)
    }

    /// libxml2 reads a name with two colons, `prefix:local:rest`, as the QName `prefix:local`
    /// followed by `rest` as a name of its own (a namespace error, which neither parser holds
    /// against a part); a `rest` that does not begin as a name does (`a:b:2`, `a:b:-c`) ends
    /// the name before it there, and the bytes left over are a syntax error. So they are here.
    private func checkAfterSecondColon(_ range: Range<Int>) throws {
        guard let first = colon(in: range.lowerBound + 1..<range.upperBound), first + 1 < range.upperBound,
            buffer[first + 1] != UInt8(ascii: ":"), isNameStart(at: first + 1, before: range.upperBound),
            let second = colon(in: first + 2..<range.upperBound), second + 1 < range.upperBound,
            !isNameStart(at: second + 1, before: range.upperBound)
        else { return }
        throw error("\"\(name(range))\" is not a valid XML name")
    }

    private func colon(in range: Range<Int>) -> Int? {
        range.first { buffer[$0] == UInt8(ascii: ":") }
    }

    /// Whether the character at `index` (of a name ending before `limit`) may start a name.
    private func isNameStart(at index: Int, before limit: Int) -> Bool {
        let byte = buffer[index]
        if byte < 0x80 { return Self.asciiNameKinds[Int(byte)] == 2 }
        guard let (scalar, _) = UTF8Text.scalar(at: index, in: UnsafeBufferPointer(start: buffer, count: limit)) else {
            return false
        }
        return Self.isNameCharacter(scalar, start: true)
    }

    /// Per ASCII byte: 2 a name start character, 1 a name character only, 0 neither.
    private static let asciiNameKinds: [UInt8] = (0..<128).map { value -> UInt8 in
        let byte = UInt8(value)
        if (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
        {
            return 2
        }
        if (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
        {
            return 1
        }
        return 0
    }

    /// XML 1.0 fifth edition's NameStartChar and NameChar ranges above ASCII.
    private static func isNameCharacter(_ scalar: UInt32, start: Bool) -> Bool {
        switch scalar {
        case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D, 0x2070...0x218F,
            0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD, 0x10000...0xEFFFF:
            return true
        case 0xB7, 0x300...0x36F, 0x203F...0x2040:
            return !start
        default:
            return false
        }
    }

    private func name(_ range: Range<Int>) -> String {
        String(
            decoding: UnsafeBufferPointer(start: buffer + range.lowerBound, count: min(range.count, 64)), as: UTF8.self)
    }

    private var openName: String {
        let names = scratch.pointee.openNames.bytes
        return String(decoding: UnsafeBufferPointer(rebasing: names[openNameEnds[max(depth - 1, 0)]...]), as: UTF8.self)
    }

    /// Byte equality for short names (a loop beats a memcmp call).
    @inline(__always) private static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, count: Int)
        -> Bool
    {
        for index in 0..<count where a[index] != b[index] { return false }
        return true
    }

    private func error(_ message: String) -> XMLError {
        XMLError(file: file, part: part, byteOffset: discarded + position, message: message)
    }
}
