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
    private(set) var strings: [String] = []
    private(set) var totalBytes = 0
    private var text: [UInt8] = []
    private var inItem = false
    private var inText = false
    private var phoneticDepth = 0
    private let limits: XLSXLimits
    init(limits: XLSXLimits) { self.limits = limits }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("si") {
            inItem = true
            text.removeAll(keepingCapacity: true)
        } else if name.is("t") {
            inText = inItem && phoneticDepth == 0
        } else if name.is("rPh") {
            phoneticDepth += 1
        } else if name.is("sst"), let declared = attributes.string("uniqueCount").flatMap(Int.init) {
            strings.reserveCapacity(min(max(declared, 0), 65_536))
        }
    }

    override func endElement(_ name: XMLName) {
        if name.is("t") {
            inText = false
        } else if name.is("rPh") {
            phoneticDepth = max(0, phoneticDepth - 1)
        } else if name.is("si") {
            inItem = false
            guard strings.count < limits.maxSharedStrings else {
                stop("more than \(limits.maxSharedStrings) shared strings (the limit)")
                return
            }
            totalBytes += text.count
            guard totalBytes <= limits.maxSharedStringBytes else {
                stop("shared strings exceed \(limits.maxSharedStringBytes) bytes (the limit)")
                return
            }
            strings.append(text.withUnsafeBufferPointer { OOXMLEscapes.decode($0) })
        }
    }

    override func characters(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard inText else { return }
        guard text.count + chunk.count <= limits.maxCellBytes else {
            stop("shared string \(strings.count) is longer than \(limits.maxCellBytes) bytes (the limit)")
            inText = false
            return
        }
        text.append(contentsOf: chunk)
    }
}
