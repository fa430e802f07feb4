import ArgumentParser
import Foundation
import OutputText
import Publishing

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi keys generate --out NAME` (SPEC section 23): an Ed25519 key pair for signed packs,
/// `NAME.pem` (private, mode 0600) and `NAME.pub.pem`; an existing file is never overwritten.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Key pairs that sign packs (publish --sign, ddkpi verify).",
        subcommands: [Generate.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new Ed25519 key pair: NAME.pem (private, mode 0600) and NAME.pub.pem.")

        @Option(help: "The key pair's path without extension.")
        var out: String

        func run() throws {
            let key = try Ed25519Key.generate()
            let (secret, shared) = ("\(out).pem", "\(out).pub.pem")
            for path in [secret, shared] where FileManager.default.fileExists(atPath: path) {
                throw SigningError("\(path) exists: a key is never overwritten (remove it or choose another --out)")
            }
            try Self.create(secret, try key.privatePEM(), mode: 0o600)
            try Self.create(shared, try key.publicPEM(), mode: 0o644)
            print("wrote \(secret) (private: keep it secret; publish --sign takes it) and \(shared) (for ddkpi verify)")
        }

        /// Writes `text` to a new file at `path` with `mode`, failing if anything is there.
        private static func create(_ path: String, _ text: String, mode: mode_t) throws {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                throw SigningError("cannot create \(path): \(String(cString: strerror(errno)))")
            }
            defer { close(descriptor) }
            let bytes = Array(text.utf8)
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else {
                    throw SigningError("cannot write \(path): \(String(cString: strerror(errno)))")
                }
                written += count
            }
        }
    }
}

/// `ddkpi verify DIR --key NAME.pub.pem` (SPEC section 23): a pack's signature, its files' sizes
/// and SHA-256, and files it does not list; exit 0 when all hold, 1 naming each mismatch, 2 for
/// a bad key or no manifest.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a published pack: its signature, every listed file's size and SHA-256, and unlisted files.")

    @Argument(help: "The pack's folder (holding manifest.json).")
    var folder: String

    @Option(help: "The public key (NAME.pub.pem from ddkpi keys generate).")
    var key: String

    func run() throws {
        guard let pem = FileManager.default.contents(atPath: key) else {
            throw SigningError("cannot read the key \(key)")
        }
        let mismatches = try PackVerifier.mismatches(in: folder, key: try Ed25519Key.read(pem: pem, name: key))
        for mismatch in mismatches { print(ControlCharacters.escaped("\(folder)/\(mismatch)")) }
        guard mismatches.isEmpty else { throw ExitCode(ExitStatus.inputFailed) }
        print(ControlCharacters.escaped("\(folder): signature and every file hold"))
    }
}
