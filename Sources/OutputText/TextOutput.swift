#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered text sink over a file descriptor (standard output by default).
public final class TextOutput {
    private var buffer: [UInt8] = []
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Writes to standard output.
    public init() {
        descriptor = 1
        ownsDescriptor = false
        buffer.reserveCapacity(1 << 16)
    }

    /// Creates (or truncates) a file and writes to it.
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw OutputError(path: path, message: String(cString: strerror(errno)))
        }
        descriptor = fd
        ownsDescriptor = true
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        flush()
        if ownsDescriptor { close(descriptor) }
    }

    /// Appends `text`, writing the buffer out once it holds 64 KiB.
    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes out everything buffered (retrying after `EINTR`).
    public func flush() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                Glibc.write(descriptor, raw.baseAddress.map { $0 + offset }, raw.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
