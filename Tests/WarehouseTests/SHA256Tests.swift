import Warehouse
import XCTest

/// The ledger's SHA-256 (FIPS 180-4) against its published test vectors.
final class SHA256Tests: XCTestCase {
    func testSHA256KnownVectors() throws {
        XCTAssertEqual(try SHA256().finalize(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let abc = try SHA256()
        try Array("abc".utf8).withUnsafeBytes { try abc.update($0) }
        XCTAssertEqual(try abc.finalize(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = try SHA256()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        try million.withUnsafeBytes { bytes in
            for start in stride(from: 0, to: bytes.count, by: 999) {
                try long.update(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + 999, bytes.count)]))
            }
        }
        XCTAssertEqual(try long.finalize(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}
