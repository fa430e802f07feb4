#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered text sink over a file descriptor (standard output by default).
///
/// The buffer is a fixed block of raw memory and a count rather than an `[UInt8]`: appending to
/// an array stored in a class costs a dynamic exclusivity check per `write`, which doubled the
/// time of many small writes (a `dump` writes two per cell).
public final class TextOutput {
    /// Bytes held before they are written out.
    private static let capacity = 1 << 16

    private let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: TextOutput.capacity)
    private var count = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Writes to standard output.
    public init() {
        descriptor = 1
        ownsDescriptor = false
    }

    /// Creates (or truncates) a file and writes to it.
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            buffer.deallocate()
            throw OutputError(path: path, message: String(cString: strerror(errno)))
        }
        descriptor = fd
        ownsDescriptor = true
    }

    deinit {
        flush()
        buffer.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// Appends `text`, writing the buffer out whenever it fills.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard var source = bytes.baseAddress else { return }
            var remaining = bytes.count
            while remaining > 0 {
                let taken = min(remaining, Self.capacity - count)
                (buffer + count).update(from: source, count: taken)
                count += taken
                source += taken
                remaining -= taken
                if count == Self.capacity { flush() }
            }
        }
    }

    /// Writes out everything buffered (retrying after `EINTR`).
    public func flush() {
        var offset = 0
        while offset < count {
            let written = Glibc.write(descriptor, buffer + offset, count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        count = 0
    }
}
