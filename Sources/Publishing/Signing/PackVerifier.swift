import Foundation
import Warehouse

/// Checks a published pack's folder (SPEC section 23): the signature of its `manifest.json`,
/// each listed file's size and SHA-256, and any file the manifest does not list.
public enum PackVerifier {
    /// The signature's file, beside the manifest.
    public static let signatureName = "manifest.json.sig"

    /// Every mismatch in `folder`, one line each (none: all holds); throws `SigningError` when
    /// the folder has no manifest.
    public static func mismatches(in folder: String, key: Ed25519Key) throws -> [String] {
        let directory = URL(fileURLWithPath: folder, isDirectory: true)
        guard let manifest = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")) else {
            throw SigningError("\(folder): no manifest.json to verify (is it a pack folder?)")
        }
        var mismatches = signatureMismatch(of: manifest, in: directory, key: key).map { [$0] } ?? []
        guard let listed = listedFiles(manifest) else {
            return mismatches + ["manifest.json: not a ddkpi manifest (expected a files list of name, bytes, sha256)"]
        }
        for file in listed { mismatches += fileMismatch(file, in: directory).map { [$0] } ?? [] }
        let known = Set(listed.map(\.name) + ["manifest.json", signatureName])
        mismatches += presentFiles(in: directory).filter { !known.contains($0) }.map {
            "\($0): present but not listed in manifest.json"
        }
        return mismatches
    }

    /// The signature's mismatch, if any: missing, unreadable, or not `key`'s over `manifest`.
    private static func signatureMismatch(of manifest: Data, in directory: URL, key: Ed25519Key) -> String? {
        guard let text = try? String(contentsOf: directory.appendingPathComponent(signatureName), encoding: .utf8)
        else { return "\(signatureName): missing (was the pack published with --sign?)" }
        guard let signature = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
            signature.count == 64
        else { return "\(signatureName): not a base64 Ed25519 signature" }
        guard key.verifies(signature, of: manifest) else {
            return
                "\(signatureName): does not match manifest.json under this key (another key signed it, or either file changed)"
        }
        return nil
    }

    /// A file the manifest lists.
    private struct ListedFile {
        let name: String
        let bytes: UInt64
        let sha256: String
    }

    /// The manifest's `files`, or `nil` when it has no such list.
    private static func listedFiles(_ manifest: Data) -> [ListedFile]? {
        guard let object = try? JSONSerialization.jsonObject(with: manifest) as? [String: Any],
            let files = object["files"] as? [[String: Any]]
        else { return nil }
        var listed: [ListedFile] = []
        for file in files {
            guard let name = file["name"] as? String, let bytes = (file["bytes"] as? NSNumber)?.uint64Value,
                let sha256 = file["sha256"] as? String
            else { return nil }
            listed.append(ListedFile(name: name, bytes: bytes, sha256: sha256))
        }
        return listed
    }

    /// The listed file's mismatch, if any: a name that leaves the folder, missing, another size
    /// or another SHA-256.
    private static func fileMismatch(_ file: ListedFile, in directory: URL) -> String? {
        let parts = file.name.split(separator: "/", omittingEmptySubsequences: false)
        guard !file.name.isEmpty, !file.name.hasPrefix("/"), !parts.contains(where: { $0 == ".." || $0.isEmpty })
        else { return "\(file.name): a name that leaves the pack's folder" }
        let path = directory.appendingPathComponent(file.name).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return "\(file.name): missing" }
        guard let (digest, size) = try? SHA256.ofFile(path) else { return "\(file.name): cannot be read" }
        if size != file.bytes { return "\(file.name): \(size) bytes, manifest.json says \(file.bytes)" }
        if digest != file.sha256 { return "\(file.name): its SHA-256 differs from manifest.json's" }
        return nil
    }

    /// Every entry under `directory` that is not a folder, as paths relative to it, sorted.
    private static func presentFiles(in directory: URL) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var names: [String] = []
        while let name = enumerator.nextObject() as? String {
            let type = enumerator.fileAttributes?[.type] as? FileAttributeType
            if type != .typeDirectory { names.append(name) }
        }
        return names.sorted()
    }
}
