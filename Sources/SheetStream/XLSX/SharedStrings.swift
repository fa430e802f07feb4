/// Limits on the shared-string table, the one structure a streamed workbook holds whole.
public struct XLSXLimits: Sendable {
    /// The most entries `sharedStrings.xml` may hold.
    public var maxSharedStrings: Int
    /// The most UTF-8 bytes all shared strings together may hold.
    public var maxSharedStringBytes: Int
    /// The most UTF-8 bytes one cell's text may hold.
    public var maxCellBytes: Int
    /// Limits applied to the zip container.
    public var zip: ZipLimits

    public init(
        maxSharedStrings: Int = 4_000_000, maxSharedStringBytes: Int = 256 << 20, maxCellBytes: Int = 1 << 20,
        zip: ZipLimits = .default
    ) {
        self.maxSharedStrings = maxSharedStrings
        self.maxSharedStringBytes = maxSharedStringBytes
        self.maxCellBytes = maxCellBytes
        self.zip = zip
    }

    public static let `default` = XLSXLimits()
}

/// Reads `sharedStrings.xml` (ECMA-376 Part 1, §18.4): one string per `<si>`, rich-text runs
/// concatenated, phonetic runs (`<rPh>`) skipped, `_xHHHH_` escapes decoded.
final class SharedStringsHandler: SAXHandler {
    /// The strings read so far.
    var strings: [String] { scratch.pointee.strings }
    private(set) var totalBytes = 0
    /// The table and the current item's text, behind one pointer (see `Scratch`).
    private let scratch = UnsafeMutablePointer<Scratch>.allocate(capacity: 1)
    private var inItem = false
    private var inText = false
    private var phoneticDepth = 0
    private let limits: XLSXLimits

    /// What grows per item. As stored properties of the class, each mutation would pay a dynamic
    /// exclusivity check (as `SheetHandler`'s would; docs/decisions.md#exclusivity-checks-in-sheetstream).
    private struct Scratch {
        var strings: [String] = []
        var text: [UInt8] = []
    }

    init(limits: XLSXLimits) {
        self.limits = limits
        scratch.initialize(to: Scratch())
    }

    deinit {
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("si") {
            inItem = true
            scratch.pointee.text.removeAll(keepingCapacity: true)
        } else if name.is("t") {
            inText = inItem && phoneticDepth == 0
        } else if name.is("rPh") {
            phoneticDepth += 1
        } else if name.is("sst"), let declared = attributes.string("uniqueCount").flatMap(Int.init) {
            scratch.pointee.strings.reserveCapacity(min(max(declared, 0), 65_536))
        }
    }

    override func endElement(_ name: XMLName) {
        if name.is("t") {
            inText = false
        } else if name.is("rPh") {
            phoneticDepth = max(0, phoneticDepth - 1)
        } else if name.is("si") {
            inItem = false
            guard scratch.pointee.strings.count < limits.maxSharedStrings else {
                stop("more than \(limits.maxSharedStrings) shared strings (the limit)")
                return
            }
            totalBytes += scratch.pointee.text.count
            guard totalBytes <= limits.maxSharedStringBytes else {
                stop("shared strings exceed \(limits.maxSharedStringBytes) bytes (the limit)")
                return
            }
            let string = scratch.pointee.text.withUnsafeBufferPointer { OOXMLEscapes.decode($0) }
            scratch.pointee.strings.append(string)
        }
    }

    override func characters(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard inText else { return }
        guard scratch.pointee.text.count + chunk.count <= limits.maxCellBytes else {
            stop(
                "shared string \(scratch.pointee.strings.count) is longer than \(limits.maxCellBytes) bytes (the limit)"
            )
            inText = false
            return
        }
        scratch.pointee.text.append(contentsOf: chunk)
    }
}
