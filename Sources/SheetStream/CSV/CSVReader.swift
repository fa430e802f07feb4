#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Options for reading CSV files.
public struct CSVOptions: Sendable {
    /// The field delimiter; `nil` sniffs one of `,` `;` tab `|` from the first records.
    public var delimiter: UInt8?
    /// The most bytes one field may hold.
    public var maxFieldBytes: Int
    /// The most bytes one record may hold.
    public var maxRecordBytes: Int
    /// The most fields one record may hold.
    public var maxFields: Int
    /// How many bytes are read from the file at a time.
    public var chunkSize: Int
    /// How many bytes from the start of the file the delimiter is sniffed from (at least one chunk).
    public var sniffSampleSize: Int

    public init(
        delimiter: UInt8? = nil, maxFieldBytes: Int = 1 << 20, maxRecordBytes: Int = 8 << 20, maxFields: Int = 16_384,
        chunkSize: Int = 256 << 10, sniffSampleSize: Int = 64 << 10
    ) {
        self.delimiter = delimiter
        self.maxFieldBytes = maxFieldBytes
        self.maxRecordBytes = maxRecordBytes
        self.maxFields = maxFields
        self.chunkSize = chunkSize
        self.sniffSampleSize = sniffSampleSize
    }
}

/// A streaming CSV reader: RFC 4180 plus what real exports do (SPEC section 6).
///
/// UTF-8 with or without BOM, fields that are not valid UTF-8 decoded as Windows-1252 (with a
/// warning); `,` `;` tab `|` delimiters, sniffed when not given; CRLF, LF or CR line ends;
/// quoted fields with doubled quotes and embedded newlines. Records come as `Row`s of text
/// fields, read as `.string` cells (`.empty` for empty fields) or as bytes through
/// `Row.withUTF8(at:_:)`, numbered by record; a ragged record is handed over as it is, for the
/// consumer to judge. Simple records (see `SimpleRecordScanner`) take a fast path.
/// Memory stays bounded by one chunk plus one record.
public final class CSVReader {
    public let path: String
    public let options: CSVOptions
    /// The delimiter in use (given or sniffed).
    public let delimiter: UInt8
    /// Warnings such as the Windows-1252 fallback, each naming its first place.
    public internal(set) var warnings: [String] = []

    private let descriptor: Int32
    private let bomLength: Int
    /// Whether simple records take the fast path (`SimpleRecordScanner`); off, every byte goes through
    /// the state machine, which the fuzz target compares the fast path against.
    var readsSimpleRecordsFast = true

    /// Opens a CSV file, skips a UTF-8 byte-order mark and sniffs the delimiter if none is given.
    public convenience init(path: String, options: CSVOptions = CSVOptions()) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw CSVError(
                file: path, record: 0, line: 0, byteOffset: 0,
                message: "cannot open: \(String(cString: strerror(errno)))")
        }
        try self.init(descriptor: fd, path: path, options: options)
    }

    /// Reads the CSV file open at `fd` (from offset 0, by `pread`) as `init(path:options:)` does,
    /// naming it `path`; the reader owns `fd` and closes it, also when this throws.
    init(descriptor fd: Int32, path: String, options: CSVOptions) throws {
        self.path = path
        self.options = options
        descriptor = fd
        let sampleSize = max(options.chunkSize, options.sniffSampleSize)
        // One byte more than the sample tells whether the sample is the whole file.
        var chunk = [UInt8](repeating: 0, count: sampleSize + 1)
        do {
            chunk.removeSubrange(try Self.read(into: &chunk, from: fd, at: 0, path: path)...)
        } catch {
            close(fd)
            throw error
        }
        bomLength = chunk.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        delimiter =
            options.delimiter
            ?? DelimiterSniffer.sniff(
                chunk.prefix(sampleSize).dropFirst(bomLength), isWholeFile: chunk.count <= sampleSize)
        if chunk.starts(with: [0xFF, 0xFE]) || chunk.starts(with: [0xFE, 0xFF]) {
            throw CSVError(
                file: path, record: 1, line: 1, byteOffset: 0,
                message: "the file is UTF-16 (byte-order mark found); expected UTF-8 or Windows-1252 text")
        }
    }

    deinit { close(descriptor) }

    /// Reads every record in order from the start of the file, handing each to `body` in a
    /// reused `Row`. May be called again to read the file again.
    public func readRows(_ body: (Row) throws -> Void) throws {
        try readRowsWhile({
            try body($0)
            return true
        })
    }

    /// Reads the records in order from the start of the file while `body` returns true: the
    /// record it returns false for is the last one read.
    public func readRowsWhile(_ body: (Row) throws -> Bool) throws {
        var parser = CSVRecordParser(reader: self)
        defer { parser.release() }
        var fileOffset = bomLength
        var chunk = [UInt8](repeating: 0, count: options.chunkSize)
        while true {
            let count = try Self.read(into: &chunk, from: descriptor, at: fileOffset, path: path)
            if count == 0 { break }
            try chunk.withUnsafeBufferPointer {
                try parser.consume(UnsafeBufferPointer(rebasing: $0[..<count]), fileOffset: fileOffset, body)
            }
            if parser.isStopped { return }
            fileOffset += count
        }
        try parser.finish(fileOffset: fileOffset, body)
    }

    func warn(_ message: String) {
        if warnings.count < 20 { warnings.append(message) }
    }

    /// Fills `buffer` from file offset `offset`; returns how many bytes it read (fewer than
    /// the buffer holds only at the end of the file).
    private static func read(into buffer: inout [UInt8], from descriptor: Int32, at offset: Int, path: String) throws
        -> Int
    {
        var filled = 0
        while filled < buffer.count {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress.map { $0 + filled }, raw.count - filled, off_t(offset + filled))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw CSVError(
                    file: path, record: 0, line: 0, byteOffset: 0,
                    message: "read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            filled += got
        }
        return filled
    }
}

/// Picks the delimiter that splits the first records most consistently into more than one field.
enum DelimiterSniffer {
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")]

    /// The delimiter of `sample`, the start of a file (`isWholeFile`: all of it, so that its end
    /// also ends its last record, as a header-only export without a final line end has).
    static func sniff<Bytes: Collection>(_ sample: Bytes, isWholeFile: Bool, records: Int = 30) -> UInt8
    where Bytes.Element == UInt8 {
        var best = (delimiter: UInt8(ascii: ","), agreeing: 0, width: 1)
        for candidate in candidates {
            var counts: [Int: Int] = [:]
            for width in fieldCounts(sample, delimiter: candidate, isWholeFile: isWholeFile, records: records)
            where width > 1 {
                counts[width, default: 0] += 1
            }
            guard let mode = counts.max(by: { ($0.value, $0.key) < ($1.value, $1.key) }) else { continue }
            if (mode.value, mode.key) > (best.agreeing, best.width) { best = (candidate, mode.value, mode.key) }
        }
        return best.delimiter
    }

    /// Fields per record of the first `records` non-blank records, quote-aware; a last record
    /// without a line end counts when the sample is the whole file (a cut record would not).
    private static func fieldCounts<Bytes: Collection>(
        _ sample: Bytes, delimiter: UInt8, isWholeFile: Bool, records: Int
    ) -> [Int] where Bytes.Element == UInt8 {
        var counts: [Int] = []
        var fields = 1
        var inQuotes = false
        var lineHasContent = false
        for byte in sample {
            if inQuotes {
                if byte == UInt8(ascii: "\"") { inQuotes = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inQuotes = true
                lineHasContent = true
            case delimiter:
                fields += 1
                lineHasContent = true
            case 0x0A, 0x0D:
                if lineHasContent { counts.append(fields) }
                if counts.count == records { return counts }
                fields = 1
                lineHasContent = false
            default: lineHasContent = true
            }
        }
        if isWholeFile, lineHasContent, !inQuotes { counts.append(fields) }
        return counts
    }
}
