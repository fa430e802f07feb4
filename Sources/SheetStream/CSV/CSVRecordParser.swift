/// The CSV state machine: consumes byte chunks, builds fields into a reused buffer and hands
/// out complete records. It owns no I/O; `CSVReader` feeds it.
struct CSVRecordParser {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted, afterCarriageReturn }

    private unowned let reader: CSVReader
    private let delimiter: UInt8
    private let options: CSVOptions
    private var state = State.fieldStart
    private var field = ByteBuffer()
    private let simpleRecords: SimpleRecordScanner?
    private var row = Row(number: 1, cells: [])
    private var recordBytes = 0
    private var recordLine = 1
    private var line = 1
    private var recordHasContent = false
    private var quoteLine = 1
    /// The last chunk ended with a CR inside a quoted field: an LF opening this one ends the same line.
    private var quotedCarriageReturnPending = false
    /// Whether the consumer wanted no more records: the parse stops after the record it said so for.
    private(set) var isStopped = false

    init(reader: CSVReader) {
        self.reader = reader
        delimiter = reader.delimiter
        options = reader.options
        simpleRecords =
            reader.readsSimpleRecordsFast && SimpleRecordScanner.handles(delimiter: reader.delimiter)
            ? SimpleRecordScanner(delimiter: reader.delimiter, options: options) : nil
    }

    /// Frees the field buffer; call once when done.
    func release() { field.deallocate() }

    private static let quote = UInt8(ascii: "\"")
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>, fileOffset: Int, _ body: (Row) throws -> Bool) throws {
        var index = 0
        let count = bytes.count
        while index < count && !isStopped {
            switch state {
            case .afterCarriageReturn:
                if bytes[index] == Self.lineFeed { index += 1 }
                state = .fieldStart
            case .fieldStart:
                if row.width == 0, let scanner = simpleRecords,
                    case let next = try readSimpleRecords(scanner, bytes, from: index, body), next > index
                {
                    index = next
                } else if bytes[index] == Self.quote {
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
                let segment = UnsafeBufferPointer(rebasing: bytes[start..<index])
                guard index < count else {
                    try append(segment, at: fileOffset + start, line: line)
                    break
                }
                if field.count == 0 {
                    // The whole field lies in this chunk: decode it in place, without copying.
                    try checkLength(segment, at: fileOffset + start, line: line)
                    recordBytes += segment.count
                    try storeField(segment, at: fileOffset + index, isASCII: seen < 0x80)
                    try endOfRecordOrField(terminator: bytes[index], body)
                } else {
                    try append(segment, at: fileOffset + start, line: line)
                    try endOfField(terminator: bytes[index], at: fileOffset + index, body)
                }
                index += 1
            case .quoted:
                // Line ends inside quotes: a CR counts, an LF counts unless a CR comes just before
                // it, in this chunk or (`quotedCarriageReturnPending`) at the end of the last one.
                let start = index
                let startLine = line
                let startsAfterCarriageReturn = quotedCarriageReturnPending
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
                if index > start {
                    try append(
                        UnsafeBufferPointer(rebasing: bytes[start..<index]), at: fileOffset + start, line: startLine,
                        afterCarriageReturn: startsAfterCarriageReturn)
                }
                if index < count {
                    state = .quoteInQuoted
                    index += 1
                }
            case .quoteInQuoted:
                let byte = bytes[index]
                if byte == Self.quote {
                    try append(
                        UnsafeBufferPointer(rebasing: bytes[index..<(index + 1)]), at: fileOffset + index, line: line)
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

    /// Reads the simple records from `start` on (`SimpleRecordScanner`), handing each to `body`;
    /// returns the index of the first one not read. Called at a record's start, where the
    /// record's byte count and content flag are already reset, and a simple record leaves them so.
    private mutating func readSimpleRecords(
        _ scanner: SimpleRecordScanner, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int,
        _ body: (Row) throws -> Bool
    ) throws -> Int {
        // The row is moved out while the scanner fills it, so that ending a record may update
        // the parser's counts.
        var records = Row(number: 0, cells: [])
        swap(&records, &row)
        defer { swap(&records, &row) }
        return try scanner.scanRecords(bytes, from: start, into: &records) { record in
            isStopped = try !body(record)
            line += 1
            recordLine = line
            record.reset(number: record.number + 1)
            return !isStopped
        }
    }

    /// Ends the input: emits a last record without a line end, or fails on an open quote.
    mutating func finish(fileOffset: Int, _ body: (Row) throws -> Bool) throws {
        switch state {
        case .quoted:
            throw error(at: fileOffset, "the file ends inside a quoted field opened on line \(quoteLine)")
        case .afterCarriageReturn:
            return
        case .fieldStart where row.width == 0 && !recordHasContent:
            return
        default:
            try endOfField(terminator: Self.lineFeed, at: fileOffset, body)
        }
    }

    private mutating func endOfField(terminator: UInt8, at offset: Int, _ body: (Row) throws -> Bool) throws {
        try storeField(field.bytes, at: offset)
        recordBytes += field.count
        field.removeAll()
        try endOfRecordOrField(terminator: terminator, body)
    }

    private mutating func endOfRecordOrField(terminator: UInt8, _ body: (Row) throws -> Bool) throws {
        if terminator == delimiter {
            state = .fieldStart
            return
        }
        isStopped = try !body(row)
        line += 1
        recordLine = line
        row.reset(number: row.number + 1)
        recordBytes = 0
        recordHasContent = false
        state = terminator == Self.carriageReturn ? .afterCarriageReturn : .fieldStart
    }

    /// Appends a field's cell; `isASCII` is known when the scan already saw every byte.
    private mutating func storeField(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, isASCII: Bool = false) throws
    {
        guard row.width < options.maxFields else {
            throw error(at: offset, "record has more than \(options.maxFields) fields (the limit)")
        }
        if isASCII || UTF8Text.isASCII(bytes) || UTF8Text.isValidUTF8(bytes) {
            row.appendField(bytes)
        } else {
            reader.warn(
                "\(reader.path) record \(row.number) (line \(recordLine)), field \(row.width + 1): not valid UTF-8; decoded as Windows-1252"
            )
            var text = Windows1252.decode(bytes)
            text.withUTF8 { row.appendField($0) }
        }
    }

    /// Buffers `bytes` of the current field, which start at file offset `offset` on line `line`
    /// (`afterCarriageReturn`: just after a CR, inside quotes), once `checkLength` lets them.
    @inline(__always) private mutating func append(
        _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, line: Int, afterCarriageReturn: Bool = false
    ) throws {
        try checkLength(bytes, at: offset, line: line, afterCarriageReturn: afterCarriageReturn)
        field.append(bytes)
    }

    /// Checks that `segment`, more bytes of the current field (placed as for `append`), keeps the
    /// field and the record within their limits.
    @inline(__always) private func checkLength(
        _ segment: UnsafeBufferPointer<UInt8>, at offset: Int, line: Int, afterCarriageReturn: Bool = false
    ) throws {
        let fieldRoom = options.maxFieldBytes - field.count
        let recordRoom = options.maxRecordBytes - recordBytes - field.count
        guard segment.count > fieldRoom || segment.count > recordRoom else { return }
        throw limitError(
            segment, at: offset, line: line, afterCarriageReturn: afterCarriageReturn, fieldRoom: fieldRoom,
            recordRoom: recordRoom)
    }

    /// The error for the byte of `segment` that crosses a limit, placed at that byte: its file
    /// offset and its line (counting the line ends a quoted segment holds before it).
    private func limitError(
        _ segment: UnsafeBufferPointer<UInt8>, at offset: Int, line: Int, afterCarriageReturn: Bool, fieldRoom: Int,
        recordRoom: Int
    ) -> CSVError {
        let crossing = min(fieldRoom, recordRoom)
        var crossingLine = line
        var previousWasCarriageReturn = afterCarriageReturn
        for byte in segment[..<crossing] {
            if byte == Self.carriageReturn || (byte == Self.lineFeed && !previousWasCarriageReturn) {
                crossingLine += 1
            }
            previousWasCarriageReturn = byte == Self.carriageReturn
        }
        let message =
            fieldRoom <= recordRoom
            ? "field \(row.width + 1) is longer than \(options.maxFieldBytes) bytes (the limit)"
            : "record is longer than \(options.maxRecordBytes) bytes (the limit)"
        return CSVError(
            file: reader.path, record: row.number, line: crossingLine, byteOffset: offset + crossing, message: message)
    }

    private func error(at offset: Int, _ message: String) -> CSVError {
        CSVError(file: reader.path, record: row.number, line: recordLine, byteOffset: offset, message: message)
    }
}
