#if canImport(Glibc)
    import Glibc
#endif

/// The file each fuzz input is written to, for the readers of whole files: made once for the
/// process in `/dev/shm`, unlinked at once (so that none outlives the process, even one a finding
/// aborts) and rewritten in place for every input, with no path to look up.
public final class InputFile {
    /// The open file, for readers that take a descriptor.
    public let descriptor: Int32
    /// A path that opens the same file, for readers that take a path.
    public let path: String

    /// Makes the file; a target that cannot have one aborts, saying why.
    public init() {
        let name = "/dev/shm/ddkpi-fuzz-\(getpid())"
        descriptor = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { FuzzDriver.fail("cannot make \(name): \(String(cString: strerror(errno)))\n") }
        unlink(name)
        path = "/proc/self/fd/\(descriptor)"
    }

    deinit { close(descriptor) }

    /// Makes the file hold the `size` bytes at `data`, and nothing after them.
    public func write(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        var written = 0
        while let data, written < size {
            let count = pwrite(descriptor, data + written, size - written, off_t(written))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            written += count
        }
        ftruncate(descriptor, off_t(written))
    }
}
