/// The CSV state machine: consumes byte chunks, builds fields into a reused buffer and hands
/// out complete records. It owns no I/O; `CSVReader` feeds it.
struct CSVRecordParser {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCarriageReturn }

    private unowned let reader: CSVReader
    private let delimiter: UInt8
    private let options: CSVOptions
    private var state = State.fieldStart
    private var field: [UInt8] = []
    private var row = Row(number: 1, cells: [])
    private var recordBytes = 0
    private var recordLine = 1
    private var line = 1
    private var recordHasContent = false
    private var quoteLine = 1

    init(reader: CSVReader) {
        self.reader = reader
        delimiter = reader.delimiter
        options = reader.options
        field.reserveCapacity(256)
    }

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
                while index < count {
                    let byte = bytes[index]
                    if byte == delimiter || byte == Self.lineFeed || byte == Self.carriageReturn { break }
                    index += 1
                }
                if index > start {
                    recordHasContent = true
                    try append(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index)
                }
                guard index < count else { break }
                try endOfField(terminator: bytes[index], at: fileOffset + index, body)
                index += 1
            case .quoted:
                let start = index
                while index < count, bytes[index] != Self.quote {
                    if bytes[index] == Self.lineFeed || (bytes[index] == Self.carriageReturn
                        && index + 1 < count && bytes[index + 1] != Self.lineFeed)
                    {
                        line += 1
                    }
                    index += 1
                }
                if index > start { try append(UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + index) }
                if index < count {
                    state = .quoteInQuoted
                    index += 1
                }
            case .quoteInQuoted:
                let byte = bytes[index]
                if byte == Self.quote {
                    try append(byte, at: fileOffset + index)
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
        try storeField(at: offset)
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

    private mutating func storeField(at offset: Int) throws {
        guard row.cells.count < options.maxFields else {
            throw error(at: offset, "record has more than \(options.maxFields) fields (the limit)")
        }
        if field.isEmpty {
            row.append(.empty)
            return
        }
        let text = String(validating: field, as: UTF8.self) ?? fallbackDecode(at: offset)
        row.append(.string(text))
        field.removeAll(keepingCapacity: true)
    }

    private mutating func fallbackDecode(at offset: Int) -> String {
        reader.warn(
            "\(reader.path) record \(row.number) (line \(recordLine)), field \(row.cells.count + 1): not valid UTF-8; decoded as Windows-1252")
        return Windows1252.decode(field)
    }

    @inline(__always) private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
        field.append(contentsOf: bytes)
        recordBytes += bytes.count
        try checkSizes(at: offset)
    }

    @inline(__always) private mutating func append(_ byte: UInt8, at offset: Int) throws {
        field.append(byte)
        recordBytes += 1
        try checkSizes(at: offset)
    }

    @inline(__always) private func checkSizes(at offset: Int) throws {
        if field.count > options.maxFieldBytes {
            throw error(at: offset, "field \(row.cells.count + 1) is longer than \(options.maxFieldBytes) bytes (the limit)")
        }
        if recordBytes > options.maxRecordBytes {
            throw error(at: offset, "record is longer than \(options.maxRecordBytes) bytes (the limit)")
        }
    }

    private func error(at offset: Int, _ message: String) -> CSVError {
        CSVError(file: reader.path, record: row.number, line: recordLine, byteOffset: offset, message: message)
    }
}
