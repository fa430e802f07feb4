import CISAL

/// The inflated bytes of one zip entry, read in chunks into the caller's buffer.
///
/// Stored and deflate entries are supported. The central directory's sizes and CRC-32 are
/// trusted over the local header's (which data-descriptor entries leave zero), and checked:
/// inflating past the declared size, a CRC mismatch, or a stream that ends early is an error.
public final class ZipEntryStream {
    public let entry: ZipEntry
    private let file: ReadOnlyFile
    private var compressedOffset: UInt64
    private var compressedRemaining: UInt64
    private var produced: UInt64 = 0
    private var crc: UInt32 = 0
    private var ended = false
    private var inflater: Inflater?

    init(file: ReadOnlyFile, entry: ZipEntry, limits: ZipLimits) throws {
        self.file = file
        self.entry = entry
        func fail(_ reason: ZipError.Reason) -> ZipError { ZipError(file: file.path, part: entry.name, reason) }
        guard !entry.isEncrypted else { throw fail(.encryptedEntry) }
        guard entry.method == 0 || entry.method == 8 else { throw fail(.unsupportedMethod(entry.method)) }
        guard entry.uncompressedSize <= limits.maxEntryBytes else {
            throw fail(.entryTooLarge(declared: entry.uncompressedSize, limit: limits.maxEntryBytes))
        }
        if entry.uncompressedSize > limits.ratioAllowance {
            let ratio = entry.uncompressedSize / max(entry.compressedSize, 1)
            guard ratio <= limits.maxCompressionRatio else {
                throw fail(.compressionRatioTooHigh(ratio: ratio, limit: limits.maxCompressionRatio))
            }
        }
        let header = try file.readExactly(30, at: entry.localHeaderOffset, what: "local header of \(entry.name)")
        guard header.u32(0) == 0x0403_4b50 else { throw fail(.malformed("no local file header at its offset")) }
        compressedOffset = entry.localHeaderOffset + 30 + UInt64(header.u16(26)) + UInt64(header.u16(28))
        compressedRemaining = entry.compressedSize
        guard compressedOffset <= file.size, entry.compressedSize <= file.size - compressedOffset else {
            throw fail(.truncated("entry data runs past the end of the file"))
        }
        if entry.method == 8 { inflater = Inflater(file: file.path, part: entry.name) }
    }

    /// Fills `buffer` with the next inflated bytes; returns 0 once the entry is complete and verified.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard !ended, buffer.count > 0 else { return 0 }
        let count: Int
        if let inflater {
            count = try inflater.inflate(into: buffer) { input in
                let want = Int(min(UInt64(input.count), compressedRemaining))
                let got = try file.read(
                    into: UnsafeMutableRawBufferPointer(rebasing: input[0..<want]), at: compressedOffset)
                compressedOffset += UInt64(got)
                compressedRemaining -= UInt64(got)
                return got
            }
        } else {
            let want = Int(min(UInt64(buffer.count), compressedRemaining))
            count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: compressedOffset)
            compressedOffset += UInt64(count)
            compressedRemaining -= UInt64(count)
        }
        produced += UInt64(count)
        guard produced <= entry.uncompressedSize else {
            throw ZipError(
                file: file.path, part: entry.name, .sizeMismatch(declared: entry.uncompressedSize, actual: produced))
        }
        if count > 0, let base = buffer.baseAddress {
            crc = crc32_gzip_refl(crc, base.assumingMemoryBound(to: UInt8.self), UInt64(count))
        }
        if count == 0 { try verifyEnd() }
        return count
    }

    /// Reads to the end (if not there yet) and verifies size and CRC-32.
    public func finishReading() throws {
        guard !ended else { return }
        var scratch = [UInt8](repeating: 0, count: 64 << 10)
        while try scratch.withUnsafeMutableBytes({ try read(into: $0) }) > 0 {}
    }

    private func verifyEnd() throws {
        ended = true
        guard produced == entry.uncompressedSize else {
            throw ZipError(
                file: file.path, part: entry.name,
                produced < entry.uncompressedSize && compressedRemaining == 0 && inflater?.finished == false
                    ? .truncated("deflate stream ends early")
                    : .sizeMismatch(declared: entry.uncompressedSize, actual: produced))
        }
        guard crc == entry.crc32 else {
            throw ZipError(file: file.path, part: entry.name, .crcMismatch(expected: entry.crc32, computed: crc))
        }
    }
}

/// Raw inflate (no zlib or gzip wrapper, as zip entries store it) by Intel's ISA-L, its state
/// at a fixed heap address.
///
/// ISA-L inflates a sheet's XML several times as fast as zlib, with the CRC-32 of what it gives
/// (docs/decisions.md#inflating-with-isa-l), and it streams like zlib: the input comes in
/// pieces, the output goes to the caller's buffer, and what does not fit waits in the state
/// (its output buffer, the window and the decoding tables).
final class Inflater {
    private let state: UnsafeMutablePointer<inflate_state>
    private var input: UnsafeMutableRawBufferPointer
    /// `refill` has given everything there is.
    private var inputEnded = false
    /// The error that stopped the stream, thrown again by any later call.
    private var failure: ZipError?
    private let file: String
    private let part: String
    private(set) var finished = false

    init(file: String, part: String, inputCapacity: Int = 256 << 10) {
        self.file = file
        self.part = part
        state = .allocate(capacity: 1)
        // Raw deflate, no checksum of its own (`init`'s default): `ZipEntryStream` takes the
        // CRC-32 of what it reads, stored entries' too.
        isal_inflate_init(state)
        input = .allocate(byteCount: inputCapacity, alignment: 16)
    }

    deinit {
        state.deallocate()
        input.deallocate()
    }

    /// Inflates into `output`, pulling compressed bytes through `refill` when the input runs dry.
    /// Returns 0 only at the end of the deflate stream.
    func inflate(
        into output: UnsafeMutableRawBufferPointer, refill: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> Int {
        if let failure { throw failure }
        guard !finished, let outputBase = output.baseAddress else { return 0 }
        state.pointee.next_out = outputBase.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(min(output.count, Int(UInt32.max)))
        while state.pointee.avail_out > 0 {
            if state.pointee.avail_in == 0, !inputEnded {
                let got = try refill(input)
                if got == 0 {
                    inputEnded = true
                } else {
                    state.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    state.pointee.avail_in = UInt32(got)
                }
            }
            let room = state.pointee.avail_out
            let status = isal_inflate(state)
            guard status >= 0 else {
                throw fail(.inflate("\(Self.reason(status)) after \(state.pointee.total_out) inflated bytes"))
            }
            if state.pointee.block_state == ISAL_BLOCK_FINISH {
                finished = true
                break
            }
            // Out of input with nothing more to give: the state's own buffers are drained too.
            if inputEnded, state.pointee.avail_in == 0, state.pointee.avail_out == room {
                throw fail(.truncated("deflate stream ends before its end marker"))
            }
        }
        return output.count - Int(state.pointee.avail_out)
    }

    /// Records `reason` as the stream's failure and returns it to be thrown.
    private func fail(_ reason: ZipError.Reason) -> ZipError {
        let error = ZipError(file: file, part: part, reason)
        failure = error
        return error
    }

    /// What an `isal_inflate` error status means.
    private static func reason(_ status: Int32) -> String {
        switch status {
        case ISAL_INVALID_BLOCK: return "invalid deflate block"
        case ISAL_INVALID_SYMBOL: return "invalid code in a compressed block"
        case ISAL_INVALID_LOOKBACK: return "a back reference reaches before the start"
        default: return "ISA-L inflate status \(status)"
        }
    }
}
