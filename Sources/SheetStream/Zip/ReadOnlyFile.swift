#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file opened for positioned reads (`pread`), closed when the last reference goes.
final class ReadOnlyFile {
    let path: String
    let size: UInt64
    private let descriptor: Int32

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ZipError(file: path, .cannotOpen(Self.lastErrorText())) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let why = Self.lastErrorText()
            close(fd)
            throw ZipError(file: path, .cannotOpen(why))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ZipError(file: path, .cannotOpen("not a regular file"))
        }
        descriptor = fd
        size = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `buffer.count` bytes at `offset`; returns the count read (short only at end of file).
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: UInt64) throws -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0 {
                if errno == EINTR { continue }
                throw ZipError(file: path, .cannotOpen("read failed: \(Self.lastErrorText())"))
            }
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Reads exactly `count` bytes at `offset`, or throws `truncated` naming `what`.
    func readExactly(_ count: Int, at offset: UInt64, what: String) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let got = try bytes.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        guard got == count else { throw ZipError(file: path, .truncated(what)) }
        return bytes
    }

    static func lastErrorText() -> String { String(cString: strerror(errno)) }
}

extension Array where Element == UInt8 {
    /// Little-endian unsigned integer of `width` bytes at `offset` (the caller checks bounds).
    @inline(__always) func littleEndian(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in stride(from: width - 1, through: 0, by: -1) {
            value = value << 8 | UInt64(self[offset + index])
        }
        return value
    }

    @inline(__always) func u16(_ offset: Int) -> Int { Int(littleEndian(at: offset, width: 2)) }
    @inline(__always) func u32(_ offset: Int) -> UInt64 { littleEndian(at: offset, width: 4) }
    @inline(__always) func u64(_ offset: Int) -> UInt64 { littleEndian(at: offset, width: 8) }
}
