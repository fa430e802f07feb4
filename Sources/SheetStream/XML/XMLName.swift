#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// An element or attribute local name (the part after any prefix), valid only during the
/// callback that hands it over. Compared byte-wise with no allocation.
struct XMLName {
    let bytes: UnsafePointer<UInt8>
    /// The name's length in bytes (at least 1).
    let count: Int

    init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// A NUL-terminated name (as libxml2 hands names over).
    init(cString: UnsafePointer<UInt8>) {
        self.init(bytes: cString, count: strlen(UnsafeRawPointer(cString).assumingMemoryBound(to: CChar.self)))
    }

    /// The first byte, for switching on names.
    @inline(__always) var first: UInt8 { bytes[0] }

    /// Whether the name is the single ASCII letter `letter`.
    @inline(__always) func isLetter(_ letter: Unicode.Scalar) -> Bool { count == 1 && bytes[0] == UInt8(ascii: letter) }

    /// Whether the name equals `literal` (ASCII).
    @inline(__always) func `is`(_ literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return true
    }
}

/// One attribute of a start tag, as either parser reports it.
struct XMLAttribute {
    /// The local name.
    var name: XMLName
    /// Whether the name had a namespace prefix (as `r:id` has).
    var namespaced: Bool
    /// The value as it stands in the document: predefined entities and character references are
    /// still encoded (see `XMLAttributes.string`).
    var value: UnsafeBufferPointer<UInt8>
}

/// The attributes of one start tag, valid only during the callback that hands them over.
/// Namespace declarations (`xmlns`, `xmlns:p`) are not among them.
struct XMLAttributes {
    let base: UnsafePointer<XMLAttribute>?
    let count: Int

    static let none = XMLAttributes(base: nil, count: 0)

    /// The raw value bytes of the first attribute with this local name (and, when `namespaced`
    /// is given, with or without a prefix).
    @inline(__always) func value(_ name: StaticString, namespaced: Bool? = nil) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for index in 0..<count where base[index].name.is(name) {
            if let namespaced, base[index].namespaced != namespaced { continue }
            return base[index].value
        }
        return nil
    }

    /// Calls `body` with each attribute whose local name is one ASCII letter (as a cell's `r`,
    /// `t` and `s` are), in one pass over the attributes.
    @inline(__always) func forEachSingleLetter(_ body: (UInt8, UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base else { return }
        for index in 0..<count where base[index].name.count == 1 {
            body(base[index].name.first, base[index].value)
        }
    }

    /// The value of the first attribute with this local name, as a String with its entity and
    /// character references decoded.
    func string(_ name: StaticString, namespaced: Bool? = nil) -> String? {
        guard let bytes = value(name, namespaced: namespaced) else { return nil }
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var decoded = ByteBuffer(capacity: bytes.count)
        defer { decoded.deallocate() }
        guard (try? XMLReferences.decode(bytes, into: &decoded)) != nil else {
            return String(decoding: bytes, as: UTF8.self)
        }
        return String(decoding: decoded.bytes, as: UTF8.self)
    }
}

/// Reusable storage for a start tag's items (its attributes, their names), emptied for each
/// tag without freeing: an `Array` emptied `keepingCapacity` costs a call into its generic
/// `replaceSubrange` per tag. For plain values (pointers, integers, ranges of them): the
/// elements are never deinitialized.
struct TagItemBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity = 16

    init() { base = .allocate(capacity: capacity) }

    /// Frees the storage; the owner calls this exactly once.
    func deallocate() { base.deallocate() }

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count += 1
    }

    /// The elements, valid until the next change.
    @inline(__always) var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity *= 2
    }
}

extension TagItemBuffer where Element == XMLAttribute {
    /// The attributes, as the handler reads them.
    @inline(__always) var attributes: XMLAttributes { XMLAttributes(base: base, count: count) }
}
