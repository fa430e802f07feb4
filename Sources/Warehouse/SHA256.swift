import CCrypto

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 (FIPS 180-4) of files, for the ledger's duplicate detection, computed by the
/// system's OpenSSL (libcrypto), which uses the CPU's SHA instructions where it has them, on a
/// core the ingest otherwise shares with the upserts
/// (docs/decisions.md#measured-reasons-behind-the-code).
public final class SHA256 {
    private let context: OpaquePointer

    /// A new digest.
    public init() throws {
        guard let context = EVP_MD_CTX_new() else {
            throw WarehouseError(message: "SHA-256: OpenSSL cannot allocate a digest")
        }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            EVP_MD_CTX_free(context)
            throw WarehouseError(message: "SHA-256: OpenSSL cannot start a digest")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else {
            throw WarehouseError(message: "SHA-256: OpenSSL failed to add \(bytes.count) bytes")
        }
    }

    /// The digest as 64 lowercase hex digits; the digest takes no more bytes after this.
    public func finalize() throws -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 32 else {
            throw WarehouseError(message: "SHA-256: OpenSSL failed to finish the digest")
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        return String(
            decoding: digest.prefix(32).flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// The SHA-256 and byte size of a file, read in 1 MiB pieces.
    public static func ofFile(_ path: String) throws -> (digest: String, size: UInt64) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw WarehouseError(message: "\(path): cannot open: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let hasher = try SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size: UInt64 = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw WarehouseError(message: "\(path): read failed: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            size += UInt64(got)
            try buffer.withUnsafeBytes { try hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return (try hasher.finalize(), size)
    }
}
