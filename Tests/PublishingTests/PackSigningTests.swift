import Foundation
import Publishing
import XCTest

/// Ed25519 keys and pack verification (SPEC section 23).
final class PackSigningTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    func testASignatureIsDeterministicSurvivesPEMAndFailsUnderAnotherKeyOrAChangedByte() throws {
        let key = try Ed25519Key.generate()
        let message = Data("{\"pack\":\"east\"}\n".utf8)
        let signature = try key.sign(message)
        XCTAssertEqual(signature.count, 64)
        XCTAssertEqual(try key.sign(message), signature, "Ed25519 is deterministic")

        let privatePEM = try key.privatePEM()
        XCTAssertTrue(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"), privatePEM)
        let reread = try Ed25519Key.read(pem: Data(privatePEM.utf8), name: "k.pem")
        XCTAssertTrue(reread.isPrivate)
        XCTAssertEqual(try reread.sign(message), signature)
        let publicKey = try Ed25519Key.read(pem: Data(try key.publicPEM().utf8), name: "k.pub.pem")
        XCTAssertFalse(publicKey.isPrivate)
        XCTAssertTrue(publicKey.verifies(signature, of: message))
        XCTAssertThrowsError(try publicKey.sign(message))

        var changed = message
        changed[2] ^= 1
        XCTAssertFalse(publicKey.verifies(signature, of: changed))
        XCTAssertFalse(try Ed25519Key.generate().verifies(signature, of: message))
        XCTAssertThrowsError(try Ed25519Key.read(pem: Data("not a key".utf8), name: "bad.pem")) { error in
            XCTAssertEqual(
                "\(error)", "bad.pem: not an Ed25519 key in PEM (expected a file written by `ddkpi keys generate`)")
        }
    }

    func testVerificationNamesEachChangedMissingOrUnlistedFile() throws {
        let key = try Ed25519Key.generate()
        XCTAssertThrowsError(try PackVerifier.mismatches(in: folder.path, key: key)) { error in
            XCTAssertTrue("\(error)".hasSuffix(": no manifest.json to verify (is it a pack folder?)"), "\(error)")
        }
        let review = folder.appendingPathComponent("review.html")
        try Data("review".utf8).write(to: review)
        let manifest = Data(
            """
            {"pack":"p",
            "files":[
            {"name":"review.html","bytes":6,"sha256":"c97ace4c8fef2cee8fa0f3c9f52aab18dbd4f42438afe362ffb8f75ce4c04b84"}
            ]}

            """.utf8)
        try manifest.write(to: folder.appendingPathComponent("manifest.json"))
        XCTAssertEqual(
            try PackVerifier.mismatches(in: folder.path, key: key),
            ["manifest.json.sig: missing (was the pack published with --sign?)"])

        let signature = folder.appendingPathComponent(PackVerifier.signatureName)
        try Data((try key.sign(manifest).base64EncodedString() + "\n").utf8).write(to: signature)
        XCTAssertEqual(try PackVerifier.mismatches(in: folder.path, key: key), [], "all holds")

        try Data("reviex".utf8).write(to: review)
        try Data("extra".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        XCTAssertEqual(
            try PackVerifier.mismatches(in: folder.path, key: key),
            [
                "review.html: its SHA-256 differs from manifest.json's",
                "notes.txt: present but not listed in manifest.json",
            ])
        try FileManager.default.removeItem(at: review)
        XCTAssertEqual(try PackVerifier.mismatches(in: folder.path, key: key).first, "review.html: missing")

        XCTAssertEqual(
            try PackVerifier.mismatches(in: folder.path, key: try Ed25519Key.generate()).first,
            "manifest.json.sig: does not match manifest.json under this key (another key signed it, or either file changed)"
        )
    }

    func testAManifestNameThatLeavesTheFolderIsAMismatch() throws {
        let key = try Ed25519Key.generate()
        let manifest = Data("{\"files\":[{\"name\":\"../secret\",\"bytes\":1,\"sha256\":\"00\"}]}".utf8)
        try manifest.write(to: folder.appendingPathComponent("manifest.json"))
        try Data(try key.sign(manifest).base64EncodedString().utf8).write(
            to: folder.appendingPathComponent(PackVerifier.signatureName))
        XCTAssertEqual(
            try PackVerifier.mismatches(in: folder.path, key: key), ["../secret: a name that leaves the pack's folder"])
    }
}
