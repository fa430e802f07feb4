/// The CSV state machine: consumes byte chunks, builds fields into a reused buffer and hands
/// out complete records. It owns no I/O; `CSVReader` feeds it.
struct CSVRecordParser {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCarriageReturn }

    private unowned let reader: CSVReader
    private let delimiter: UInt8
    private let options: CSVOptions
    private var state = State.fieldStart
    private var field = ByteBuffer()
    private var row = Row(number: 1, cells: [])
    private var recordBytes = 0
    private var recordLine = 1
    private var line = 1
    private var recordHasContent = false
    private var quoteLine = 1
    /// The last chunk ended with a CR inside a quoted field: an LF opening this one ends the same line.
    private var quotedCarriageReturnPending = false

    init(reader: CSVReader) {
        self.reader = reader
        delimiter = reader.delimiter
        options = reader.options
    }

    /// Frees the field buffer; call once when done.
    func release() { field.deallocate() }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, fileOffset: Int, _ body: (Row) throws -> Void) throws {
        var index = 0
        let count = bytes.count
        while index < count {
            switch state {
            case .afterCarriageReturn:
                if bytes[index] == Self.lineFeed { index += 1 }
                state = .fieldStart
            case .fieldStart:
                if bytes[index] == Self.quote {
                    state = .quoted
                    quoteLine = line
                    recordHasContent = true
                    index += 1
                } else {
                    state = .unquoted
                }
            case .unquoted:
                let start = index
                var seen: UInt8 = 0
                while index < count {
                    let byte = bytes[index]
                    if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                    seen |= byte
                    index += 1
                }
                if index > start { recordHasContent = true }
                guard index < count else {
                    try append(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index)
                    break
                }
                if field.count == 0 {
                    // The whole field lies in this chunk: decode it in place, without copying.
                    try checkLength(index - start, at: fileOffset + index)
                    try storeField(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index, isASCII: seen < 0x80)
                    try endOfRecordOrField(terminator: bytes[index], body)
                } else {
                    try append(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index)
                    try endOfField(terminator: bytes[index], at: fileOffset + index, body)
                }
                index += 1
            case .quoted:
                // Line ends inside quotes: a CR counts, an LF counts unless a CR comes just before
                // it, in this chunk or (`quotedCarriageReturnPending`) at the end of the last one.
                let start = index
                while index < count, bytes[index] != Self.quote {
                    let byte = bytes[index]
                    if byte == Self.carriageReturn {
                        line += 1
                    } else if byte == Self.lineFeed,
                        index > start ? bytes[index - 1] != Self.carriageReturn : !quotedCarriageReturnPending
                    {
                        line += 1
                    }
                    index += 1
                }
                quotedCarriageReturnPending = index == count && bytes[index - 1] == Self.carriageReturn
                if index > start { try append(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index) }
                if index < count {
                    state = .quoteInQuoted
                    index += 1
                }
            case .quoteInQuoted:
                let byte = bytes[index]
                if byte == Self.quote {
                    try append(UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]), at: fileOffset + index)
                    state = .quoted
                    index += 1
                } else if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn {
                    try endOfField(terminator: byte, at: fileOffset + index, body)
                    index += 1
                } else {
                    // Text after a closing quote (`"abc"def`): kept literally, as spreadsheets do.
                    state = .unquoted
                }
            }
        }
    }

    /// Ends the input: emits a last record without a line end, or fails on an open quote.
    mutating func finish(fileOffset: Int, _ body: (Row) throws -> Void) throws {
        switch state {
        case .quoted:
            throw error(at: fileOffset, "the file ends inside a quoted field opened on line \(quoteLine)")
        case .afterCarriageReturn:
            return
        case .fieldStart where row.cells.isEmpty && !recordHasContent:
            return
        default:
            try endOfField(terminator: Self.lineFeed, at: fileOffset, body)
        }
    }

    private mutating func endOfField(terminator: UInt8, at offset: Int, _ body: (Row) throws -> Void) throws {
        try storeField(field.bytes, at: offset)
        recordBytes += field.count
        field.removeAll()
        try endOfRecordOrField(terminator: terminator, body)
    }

    private mutating func endOfRecordOrField(terminator: UInt8, _ body: (Row) throws -> Void) throws {
        if terminator == delimiter {
            state = .fieldStart
            return
        }
        try body(row)
        line += 1
        recordLine = line
        row.reset(number: row.number + 1)
        recordBytes = 0
        recordHasContent = false
        state = terminator == Self.carriageReturn ? .afterCarriageReturn : .fieldStart
    }

    /// Appends a field's cell; `isASCII` is known when the scan already saw every byte.
    private mutating func storeField(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, isASCII: Bool = false) throws {
        guard row.cells.count < options.maxFields else {
            throw error(at: offset, "record has more than \(options.maxFields) fields (the limit)")
        }
        if bytes.isEmpty {
            row.append(.empty)
            return
        }
        let text = isASCII ? String(decoding: bytes, as: UTF8.self) : UTF8Text.decode(bytes) ?? fallbackDecode(bytes)
        row.append(.string(text))
    }

    private func fallbackDecode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        reader.warn(
            "\(reader.path) record \(row.number) (line \(recordLine)), field \(row.cells.count + 1): not valid UTF-8; decoded as Windows-1252")
        return Windows1252.decode(bytes)
    }

    @inline(__always) private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        field.append(bytes)
        try checkLength(0, at: offset)
    }

    /// Checks the field (buffered bytes plus `pending` bytes not yet buffered) and record sizes.
    @inline(__always) private mutating func checkLength(_ pending: Int, at offset: Int) throws {
        recordBytes += pending
        if field.count + pending > options.maxFieldBytes {
            throw error(at: offset, "field \(row.cells.count + 1) is longer than \(options.maxFieldBytes) bytes (the limit)")
        }
        if recordBytes + field.count > options.maxRecordBytes {
            throw error(at: offset, "record is longer than \(options.maxRecordBytes) bytes (the limit)")
        }
    }

    private func error(at offset: Int, _ message: String) -> CSVError {
        CSVError(file: reader.path, record: row.number, line: recordLine, byteOffset: offset, message: message)
    }
}
