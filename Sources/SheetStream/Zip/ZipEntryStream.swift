import CZlib

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
    private var crc: UInt = 0
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
        if entry.method == 8 { inflater = try Inflater(file: file.path, part: entry.name) }
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
            crc = CZlib.crc32(crc, base.assumingMemoryBound(to: UInt8.self), UInt32(count))
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
        guard UInt32(truncatingIfNeeded: crc) == entry.crc32 else {
            throw ZipError(
                file: file.path, part: entry.name,
                .crcMismatch(expected: entry.crc32, computed: UInt32(truncatingIfNeeded: crc)))
        }
    }
}

/// zlib raw inflate (`-MAX_WBITS`) with its `z_stream` at a fixed heap address.
final class Inflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private var input: UnsafeMutableRawBufferPointer
    private let file: String
    private let part: String
    private(set) var finished = false

    init(file: String, part: String, inputCapacity: Int = 256 << 10) throws {
        self.file = file
        self.part = part
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: inputCapacity, alignment: 16)
        let status = CZlib_inflateInitRaw(stream)
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw ZipError(file: file, part: part, .inflate("inflateInit2 failed (\(status))"))
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// Inflates into `output`, pulling compressed bytes through `refill` when the input runs dry.
    /// Returns 0 only at the end of the deflate stream.
    func inflate(
        into output: UnsafeMutableRawBufferPointer, refill: (UnsafeMutableRawBufferPointer) throws -> Int
    ) throws -> Int {
        guard !finished, let outputBase = output.baseAddress else { return 0 }
        stream.pointee.next_out = outputBase.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = UInt32(min(output.count, Int(UInt32.max)))
        while stream.pointee.avail_out > 0 {
            if stream.pointee.avail_in == 0 {
                let got = try refill(input)
                guard got > 0 else {
                    throw ZipError(file: file, part: part, .truncated("deflate stream ends before its end marker"))
                }
                stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_in = UInt32(got)
            }
            let status = CZlib.inflate(stream, Z_NO_FLUSH)
            if status == Z_STREAM_END {
                finished = true
                break
            }
            guard status == Z_OK || status == Z_BUF_ERROR else {
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib status \(status)"
                throw ZipError(file: file, part: part, .inflate(message))
            }
        }
        return output.count - Int(stream.pointee.avail_out)
    }
}
