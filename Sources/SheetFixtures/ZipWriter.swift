import CZlib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A problem writing a zip or XLSX file.
public struct WriterError: Error, CustomStringConvertible, Sendable {
    /// The file being written.
    public var path: String
    /// What went wrong.
    public var message: String
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Writes a zip file entry by entry, deflating each as it streams in (no zip64: entries and the
/// archive stay under 4 GiB). Local headers are patched in place once an entry's sizes are known,
/// so readers need no data descriptors.
public final class ZipWriter {
    private struct Record {
        var name: String
        var offset: UInt64
        var crc: UInt32
        var compressed: UInt64
        var uncompressed: UInt64
    }

    /// The archive being written.
    public let path: String
    private let descriptor: Int32
    private let stream: UnsafeMutablePointer<z_stream>
    private var output = [UInt8](repeating: 0, count: 256 << 10)
    private var pending: [UInt8] = []
    private var position: UInt64 = 0
    private var records: [Record] = []
    private var current: Record?
    private var crc: UInt = 0
    private let level: Int32

    /// Creates (or replaces) the archive at `path`; entries are deflated at `compressionLevel` (0…9).
    public init(path: String, compressionLevel: Int32 = 6) throws {
        self.path = path
        level = compressionLevel
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw WriterError(path: path, message: "cannot create: \(String(cString: strerror(errno)))")
        }
        descriptor = fd
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        pending.reserveCapacity(512 << 10)
    }

    deinit {
        if current != nil { deflateEnd(stream) }
        stream.deallocate()
        close(descriptor)
    }

    /// Starts a new deflate entry; the previous one must have been ended.
    public func beginEntry(_ name: String) throws {
        guard current == nil else { throw WriterError(path: path, message: "entry \(name) begun inside another") }
        current = Record(name: name, offset: position, crc: 0, compressed: 0, uncompressed: 0)
        crc = 0
        try emit(localHeader(name: name, crc: 0, compressed: 0, uncompressed: 0))
        let status = CZlib_deflateInitRaw(stream, level)
        guard status == Z_OK else { throw WriterError(path: path, message: "deflateInit2 failed (\(status))") }
    }

    /// Appends bytes to the current entry.
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty, var record = current else { return }
        crc = CZlib.crc32(crc, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(bytes.count))
        record.uncompressed += UInt64(bytes.count)
        current = record
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(bytes.count)
        try pump(flush: Z_NO_FLUSH)
    }

    /// Appends text, as UTF-8, to the current entry.
    public func write(_ text: String) throws {
        var copy = text
        try copy.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Finishes the current entry and patches its local header.
    public func endEntry() throws {
        guard var record = current else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try pump(flush: Z_FINISH)
        deflateEnd(stream)
        record.crc = UInt32(truncatingIfNeeded: crc)
        record.compressed = position - record.offset - 30 - UInt64(record.name.utf8.count)
        guard record.uncompressed < 0xFFFF_FFFF, record.compressed < 0xFFFF_FFFF else {
            throw WriterError(path: path, message: "entry \(record.name) is over 4 GiB; zip64 writing is not supported")
        }
        try flushPending()
        let header = localHeader(
            name: record.name, crc: record.crc, compressed: record.compressed, uncompressed: record.uncompressed)
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(record.offset)) }
        guard written == header.count else { throw WriterError(path: path, message: "cannot patch local header") }
        records.append(record)
        current = nil
    }

    /// Writes the central directory and closes the archive.
    public func finish() throws {
        try endEntry()
        let directoryOffset = position
        for record in records {
            var header = Bytes()
            header.u32(0x0201_4b50)
            header.u16(20)
            header.u16(20)
            header.u16(0x0800)
            header.u16(8)
            header.u16(0)
            header.u16(0x21)
            header.u32(record.crc)
            header.u32(UInt32(record.compressed))
            header.u32(UInt32(record.uncompressed))
            header.u16(UInt16(record.name.utf8.count))
            header.u16(0)
            header.u16(0)
            header.u16(0)
            header.u16(0)
            header.u32(0)
            header.u32(UInt32(record.offset))
            header.bytes.append(contentsOf: record.name.utf8)
            try emit(header.bytes)
        }
        guard position < 0xFFFF_FFFF, records.count < 0xFFFF else {
            throw WriterError(
                path: path, message: "archive is over 4 GiB or 65,535 entries; zip64 writing is not supported")
        }
        var end = Bytes()
        end.u32(0x0605_4b50)
        end.u16(0)
        end.u16(0)
        end.u16(UInt16(records.count))
        end.u16(UInt16(records.count))
        end.u32(UInt32(position - directoryOffset))
        end.u32(UInt32(directoryOffset))
        end.u16(0)
        try emit(end.bytes)
        try flushPending()
    }

    private func localHeader(name: String, crc: UInt32, compressed: UInt64, uncompressed: UInt64) -> [UInt8] {
        var header = Bytes()
        header.u32(0x0403_4b50)
        header.u16(20)
        header.u16(0x0800)
        header.u16(8)
        header.u16(0)
        header.u16(0x21)
        header.u32(crc)
        header.u32(UInt32(truncatingIfNeeded: compressed))
        header.u32(UInt32(truncatingIfNeeded: uncompressed))
        header.u16(UInt16(name.utf8.count))
        header.u16(0)
        header.bytes.append(contentsOf: name.utf8)
        return header.bytes
    }

    private func pump(flush: Int32) throws {
        let capacity = output.count
        repeat {
            let produced: Int = try output.withUnsafeMutableBytes { buffer in
                stream.pointee.next_out = buffer.baseAddress?.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = UInt32(capacity)
                let status = deflate(stream, flush)
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw WriterError(path: path, message: "deflate failed (\(status))")
                }
                return capacity - Int(stream.pointee.avail_out)
            }
            if produced > 0 { try emit(output[0..<produced]) }
        } while stream.pointee.avail_out == 0 || (flush == Z_FINISH && stream.pointee.avail_in > 0)
    }

    private func emit<Chunk: Collection>(_ bytes: Chunk) throws where Chunk.Element == UInt8 {
        pending.append(contentsOf: bytes)
        position += UInt64(bytes.count)
        if pending.count >= 256 << 10 { try flushPending() }
    }

    private func flushPending() throws {
        var offset = 0
        while offset < pending.count {
            let written = pending.withUnsafeBytes {
                Glibc.write(descriptor, $0.baseAddress.map { $0 + offset }, $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw WriterError(path: path, message: "write failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        pending.removeAll(keepingCapacity: true)
    }
}

/// Little-endian byte assembly for zip headers.
private struct Bytes {
    var bytes: [UInt8] = []
    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(value & 0xFF))
        bytes.append(UInt8(value >> 8))
    }
    mutating func u32(_ value: UInt32) {
        u16(UInt16(value & 0xFFFF))
        u16(UInt16(value >> 16))
    }
}
