import CCrypto
import Foundation

/// An Ed25519 key through libcrypto (SPEC section 23): a private key signs, either verifies;
/// keys go in and out as PEM (PKCS #8 private, SubjectPublicKeyInfo public). Signatures are
/// deterministic, so signing the same bytes twice gives the same signature. No message this
/// type forms ever holds key material.
public final class Ed25519Key {
    private let key: OpaquePointer
    /// Whether the key holds its private half.
    public let isPrivate: Bool

    private init(_ key: OpaquePointer, isPrivate: Bool) {
        self.key = key
        self.isPrivate = isPrivate
    }

    deinit { EVP_PKEY_free(key) }

    /// A new random key pair.
    public static func generate() throws -> Ed25519Key {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_ED25519, nil) else {
            throw SigningError("no Ed25519 in libcrypto")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_keygen(context, &key) == 1, let key else {
            throw SigningError("libcrypto could not generate an Ed25519 key")
        }
        return Ed25519Key(key, isPrivate: true)
    }

    /// The key a PEM file holds: a private key, or else a public one; `name` says which file in an error.
    public static func read(pem: Data, name: String) throws -> Ed25519Key {
        if let key = parse(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) {
            return try checked(key, isPrivate: true, name: name)
        }
        if let key = parse(pem, { PEM_read_bio_PUBKEY($0, nil, nil, nil) }) {
            return try checked(key, isPrivate: false, name: name)
        }
        throw SigningError("\(name): not an Ed25519 key in PEM (expected a file written by `ddkpi keys generate`)")
    }

    /// The private key as PKCS #8 PEM.
    public func privatePEM() throws -> String {
        guard isPrivate else { throw SigningError("a public key has no private PEM") }
        return try Self.pem { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
    }

    /// The public key as SubjectPublicKeyInfo PEM.
    public func publicPEM() throws -> String { try Self.pem { PEM_write_bio_PUBKEY($0, key) } }

    /// The signature of `message`: 64 bytes.
    public func sign(_ message: Data) throws -> Data {
        guard isPrivate else { throw SigningError("a public key cannot sign: give the private key (NAME.pem)") }
        guard let context = EVP_MD_CTX_new() else { throw SigningError("libcrypto is out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var signature = Data(count: 64)
        var length = 64
        let signed = message.withUnsafeBytes { bytes in
            signature.withUnsafeMutableBytes { out in
                EVP_DigestSignInit(context, nil, nil, nil, key) == 1
                    && EVP_DigestSign(
                        context, out.baseAddress?.assumingMemoryBound(to: UInt8.self), &length,
                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
            }
        }
        guard signed, length == 64 else { throw SigningError("libcrypto could not sign") }
        return signature
    }

    /// Whether `signature` is this key's over `message`.
    public func verifies(_ signature: Data, of message: Data) -> Bool {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return message.withUnsafeBytes { bytes in
            signature.withUnsafeBytes { given in
                EVP_DigestVerifyInit(context, nil, nil, nil, key) == 1
                    && EVP_DigestVerify(
                        context, given.baseAddress?.assumingMemoryBound(to: UInt8.self), given.count,
                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == 1
            }
        }
    }

    /// `key` when it is an Ed25519 key, else the error naming the file.
    private static func checked(_ key: OpaquePointer, isPrivate: Bool, name: String) throws -> Ed25519Key {
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_ED25519 else {
            EVP_PKEY_free(key)
            throw SigningError("\(name): a key of another kind than Ed25519")
        }
        return Ed25519Key(key, isPrivate: isPrivate)
    }

    /// The key `read` finds in `pem`, if any (libcrypto's error queue left empty).
    private static func parse(_ pem: Data, _ read: (OpaquePointer) -> OpaquePointer?) -> OpaquePointer? {
        defer { ERR_clear_error() }
        return pem.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let count = Int32(exactly: bytes.count), let bio = BIO_new_mem_buf(bytes.baseAddress, count) else {
                return nil
            }
            defer { BIO_free(bio) }
            return read(bio)
        }
    }

    /// The text `write` puts in a memory BIO.
    private static func pem(_ write: (OpaquePointer) -> Int32) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw SigningError("libcrypto is out of memory") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw SigningError("libcrypto could not write the key") }
        var bytes: UnsafeMutablePointer<CChar>?
        let count = ccrypto_bio_bytes(bio, &bytes)
        guard let bytes, count > 0 else { throw SigningError("libcrypto wrote no key") }
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// A key that cannot be read, made or used: exit code 2. Never holds key material.
public struct SigningError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
