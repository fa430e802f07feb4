/// An element or attribute local name as libxml2 hands it over: a NUL-terminated UTF-8 string
/// valid only during the callback. Compared byte-wise with no allocation.
struct XMLName {
    let bytes: UnsafePointer<UInt8>

    /// Whether the name equals `literal` (ASCII).
    @inline(__always) func `is`(_ literal: StaticString) -> Bool {
        let expected = literal.utf8Start
        let count = literal.utf8CodeUnitCount
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return bytes[count] == 0
    }
}

/// The attributes of one start tag (libxml2 SAX2 layout: five pointers per attribute —
/// local name, prefix, URI, value start, value end).
struct XMLAttributes {
    let base: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    let count: Int

    /// The raw value bytes of the first attribute with this local name.
    @inline(__always) func value(_ name: StaticString, namespaced: Bool? = nil) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for index in 0..<count {
            let slot = base + index * 5
            guard let local = slot[0], XMLName(bytes: local).is(name) else { continue }
            if let namespaced, (slot[2] != nil) != namespaced { continue }
            guard let start = slot[3], let end = slot[4] else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(start: start, count: end - start)
        }
        return nil
    }

    /// Calls `body` with each attribute whose local name is one ASCII letter (as a cell's `r`,
    /// `t` and `s` are), in one pass over the attributes.
    @inline(__always) func forEachSingleLetter(_ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base else { return }
        for index in 0..<count {
            let slot = base + index * 5
            guard let local = slot[0], local[1] == 0, let start = slot[3], let end = slot[4] else { continue }
            body(local[0], UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// The value of the first attribute with this local name, as a String.
    ///
    /// Without entity substitution (`XML_PARSE_NOENT`, which the parser refuses) libxml2 hands
    /// every `&` in an attribute value over as the character reference `&#38;`; it is decoded here.
    func string(_ name: StaticString, namespaced: Bool? = nil) -> String? {
        guard let bytes = value(name, namespaced: namespaced) else { return nil }
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        let reference = Array("&#38;".utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if index + reference.count <= bytes.count, bytes[index..<(index + reference.count)].elementsEqual(reference) {
                decoded.append(UInt8(ascii: "&"))
                index += reference.count
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}

