#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The CSV parser's fast path: a simple record, wholly inside the chunk in hand and within the
/// limits (the record's limit checked on its raw bytes, quotes and delimiters included, which is
/// stricter than the content the state machine counts), split into fields in one pass over its
/// bytes and copied into the row once. Simple: ends in LF or CRLF, has no other CR, and quotes
/// only around whole fields that hold no quote and no line end (`"Smith, J"`, as exporters quote
/// text). Anything else (a doubled quote, a line end in quotes, text after a closing quote, a
/// lone CR, a record the chunk cuts, a limit crossed, bytes that are not UTF-8) is left to
/// `CSVRecordParser`'s state machine, which knows how to read and report it. Only delimiters
/// that are ASCII and none of NUL, LF, CR and quote take it (`handles(delimiter:)`).
///
/// The bytes are taken sixteen at a time: vector compares mark the delimiters, line feeds,
/// quotes and CRs (SSE2's on x86-64, through the compiler's intrinsics), the marks become a bit
/// per byte, and each set bit ends a field (or opens or closes its quotes), so a block of short
/// fields costs one pass, not a branch per byte.
struct SimpleRecordScanner {
    private typealias Block = SIMD16<UInt8>

    private let maxFieldBytes: Int
    private let maxRecordBytes: Int
    private let maxFields: Int
    /// The delimiter, line feed, CR and quote in every lane (stored, not static: a static is
    /// a lazy global, checked on each use).
    private let delimiters: Block
    private let lineFeeds = Block(repeating: SimpleRecordScanner.lineFeed)
    private let carriageReturns = Block(repeating: SimpleRecordScanner.carriageReturn)
    private let quotes = Block(repeating: SimpleRecordScanner.quote)
    /// The bytes a mark is told apart by.
    private let delimiter: UInt8
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let quote = UInt8(ascii: "\"")

    init(delimiter: UInt8, options: CSVOptions) {
        self.delimiter = delimiter
        maxFieldBytes = options.maxFieldBytes
        maxRecordBytes = options.maxRecordBytes
        maxFields = options.maxFields
        delimiters = Block(repeating: delimiter)
    }

    /// Whether records split by `delimiter` can take the fast path: an ASCII byte that is not
    /// NUL (the padding of a short block), a line end or a quote, and that cannot split a UTF-8
    /// sequence.
    static func handles(delimiter: UInt8) -> Bool {
        delimiter != 0 && delimiter < 0x80 && ![0x0A, 0x0D, UInt8(ascii: "\"")].contains(delimiter)
    }

    #if arch(x86_64)
        /// The top bit set in each lane of `block` that equals `pattern`'s, clear in the others
        /// (`pcmpeqb`: Swift's own `.==` on `SIMD16` compiles to a loop over the lanes).
        @inline(__always) private static func equalLanes(_ block: Block, _ pattern: Block) -> Block {
            unsafeBitCast(
                _mm_cmpeq_epi8(unsafeBitCast(block, to: __m128i.self), unsafeBitCast(pattern, to: __m128i.self)),
                to: Block.self)
        }

        /// Bit `i` set for each lane `i` of `block` whose top bit is set (`pmovmskb`).
        @inline(__always) private static func topBits(_ block: Block) -> UInt32 {
            UInt32(bitPattern: _mm_movemask_epi8(unsafeBitCast(block, to: __m128i.self)))
        }
    #else
        /// 0x80 in each lane of `block` that equals `pattern`'s, 0 in the others (exact: the sum
        /// never carries out of a lane).
        @inline(__always) private static func equalLanes(_ block: Block, _ pattern: Block) -> Block {
            let difference = block ^ pattern
            let lowSevenBits = Block(repeating: 0x7F)
            return ~(((difference & lowSevenBits) &+ lowSevenBits) | difference) & Block(repeating: 0x80)
        }

        /// Bit `i` set for each lane `i` of `block` whose top bit is set: each half's top bits
        /// moved to the bottom of their bytes, then gathered into the top byte by a multiply whose
        /// partial products never overlap.
        @inline(__always) private static func topBits(_ block: Block) -> UInt32 {
            let halves = unsafeBitCast(block & Block(repeating: 0x80), to: SIMD2<UInt64>.self)
            let gather: UInt64 = 0x0102_0408_1020_4080
            let low = ((UInt64(littleEndian: halves[0]) >> 7) &* gather) >> 56
            let high = ((UInt64(littleEndian: halves[1]) >> 7) &* gather) >> 56
            return UInt32(truncatingIfNeeded: low | high << 8)
        }
    #endif

    /// Reads simple records one after another from `start` of `bytes`, each into `row` (empty
    /// at first) and then handed to `emit`, which must leave `row` empty and returns whether to go
    /// on; returns the index of the first record not read (not simple, not whole in `bytes`, or
    /// after the one `emit` stopped at). One call for a run of records, so that what a call
    /// costs is paid once for the run.
    func scanRecords(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into row: inout Row, _ emit: (inout Row) throws -> Bool
    ) rethrows -> Int {
        var index = start
        // The row's fields, held without a count: the row keeps them alive, and `emit` drops them
        // only when a consumer kept a copy (`Row.reset`), which leaves the row without fields.
        var fields = Unmanaged.passUnretained(row.textFields())
        while index < bytes.count,
            let next = fields._withUnsafeGuaranteedRef({ scan(bytes, from: index, into: $0) })
        {
            let goesOn = try emit(&row)
            index = next
            guard goesOn else { break }
            if !row.hasTextFields { fields = Unmanaged.passUnretained(row.textFields()) }
        }
        return index
    }

    /// Reads the record at `start` of `bytes` into `textFields`, which must be empty, and returns
    /// the index just past its line end; `nil`, with `textFields` left empty, when the record is
    /// not simple.
    @inline(__always) private func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, into textFields: TextFields
    ) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        var fieldStart = start
        var fields = 0
        var seen = Block()
        /// Inside a quoted field, and where the last closing quote was (before `fieldStart` once
        /// that field has ended).
        var inQuotes = false
        var closingQuote = -1
        // Where the record's first byte will lie in the fields' storage (empty, as the row is).
        let byteBase = textFields.byteCount - start
        /// Ends the field at `end` (a delimiter or the line end); false when a limit is crossed
        /// or text follows a closing quote.
        func endField(at end: Int) -> Bool {
            var field = fieldStart..<end
            if closingQuote > fieldStart {
                guard end == closingQuote + 1 else { return false }
                field = fieldStart + 1..<closingQuote
            }
            guard field.count <= maxFieldBytes, fields < maxFields else { return false }
            textFields.append(field.lowerBound + byteBase..<field.upperBound + byteBase)
            fields += 1
            fieldStart = end + 1
            return true
        }
        /// Ends the record at its line end at `end` (the LF, or the CR of a CRLF); false when it
        /// is not simple after all.
        func endRecord(at end: Int) -> Bool {
            let record = UnsafeBufferPointer(rebasing: bytes[start..<end])
            guard !inQuotes, endField(at: end), record.count <= maxRecordBytes,
                Self.topBits(seen) == 0 || UTF8Text.isValidUTF8(record)
            else { return false }
            textFields.appendBytes(record)
            return true
        }
        while index < bytes.count {
            let block = Self.block(at: index, of: bytes)
            seen |= block
            var marks = Self.topBits(
                Self.equalLanes(block, delimiters) | Self.equalLanes(block, lineFeeds)
                    | Self.equalLanes(block, carriageReturns) | Self.equalLanes(block, quotes))
            // Only the bytes of the file count in a short last block (its padding is zeros,
            // which no mark above matches, as the delimiter is never NUL; kept exact anyway).
            if bytes.count - index < Block.scalarCount { marks &= (UInt32(1) << (bytes.count - index)) &- 1 }
            while marks != 0 {
                let end = index + marks.trailingZeroBitCount
                let byte = base[end]
                if byte == delimiter {
                    guard inQuotes || endField(at: end) else { return abandon(textFields) }
                } else if byte == Self.lineFeed {
                    return endRecord(at: end) ? end + 1 : abandon(textFields)
                } else if byte == Self.carriageReturn, !inQuotes, end + 1 < bytes.count, base[end + 1] == Self.lineFeed
                {
                    // CRLF: the record ends at the CR, and the LF goes with it, as in the state machine.
                    return endRecord(at: end) ? end + 2 : abandon(textFields)
                } else if byte == Self.quote, inQuotes {
                    inQuotes = false
                    closingQuote = end
                } else if byte == Self.quote, end == fieldStart {
                    inQuotes = true
                } else {
                    return abandon(textFields)
                }
                marks &= marks - 1
            }
            index += Block.scalarCount
        }
        return abandon(textFields)
    }

    /// The sixteen bytes at `index`, or the last ones padded with zeros.
    @inline(__always) private static func block(at index: Int, of bytes: UnsafeBufferPointer<UInt8>) -> Block {
        guard let base = bytes.baseAddress else { return Block() }
        if bytes.count - index >= Block.scalarCount {
            return UnsafeRawPointer(base + index).loadUnaligned(as: Block.self)
        }
        var block = Block()
        for lane in 0..<(bytes.count - index) { block[lane] = base[index + lane] }
        return block
    }

    /// Gives the record up to the state machine: empties the row's fields (it held none before)
    /// and returns `nil`.
    private func abandon(_ textFields: TextFields) -> Int? {
        textFields.removeAll()
        return nil
    }
}
