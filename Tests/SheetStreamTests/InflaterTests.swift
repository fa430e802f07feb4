import Foundation
import SheetFixtures
import TestSupport
import XCTest

@testable import SheetStream

/// Deflate entries inflate (ISA-L) to the bytes zlib deflated, at every compression level and
/// read in pieces of any size, their CRC-32 checked; a corrupt block and a stream that stops
/// before its final block are errors naming the part.
final class InflaterTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws { folder = try TestPaths.temporaryDirectory() }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: folder) }

    /// 320 KiB: rows of sheet XML (long matches) between runs of pseudo-random bytes (literals,
    /// and more compressed bytes than one 256 KiB refill of the inflater's input at level 0).
    private static let content: [UInt8] = {
        var bytes: [UInt8] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for row in 0..<2_000 {
            bytes += Array(#"<row r="\#(row)"><c r="A\#(row)" s="1"><v>\#(row * 37 % 1_000)</v></c></row>"#.utf8)
            for _ in 0..<96 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(UInt8(truncatingIfNeeded: seed >> 33))
            }
        }
        return bytes
    }()

    private func archive(level: Int32, _ content: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent("level\(level).zip").path
        let writer = try ZipWriter(path: path, compressionLevel: level)
        try writer.beginEntry("part.xml")
        try content.withUnsafeBytes { try writer.write($0) }
        try writer.endEntry()
        try writer.finish()
        return path
    }

    private func read(_ path: String, pieceSize: Int) throws -> [UInt8] {
        let archive = try ZipArchive(path: path)
        let stream = try archive.stream(try XCTUnwrap(archive.entry(named: "part.xml")))
        var piece = [UInt8](repeating: 0, count: pieceSize)
        var bytes: [UInt8] = []
        while true {
            let count = try piece.withUnsafeMutableBytes { try stream.read(into: $0) }
            if count == 0 { return bytes }
            bytes += piece[0..<count]
        }
    }

    func testEveryLevelInflatesToTheWrittenBytesInPiecesOfAnySize() throws {
        for level: Int32 in [0, 1, 6, 9] {
            let path = try archive(level: level, Self.content)
            for pieceSize in [7, 4096, 1 << 20] {
                XCTAssertEqual(
                    try read(path, pieceSize: pieceSize), Self.content, "level \(level), \(pieceSize)-byte pieces")
            }
        }
    }

    /// The entry's deflate data, rewritten by `edit`, in place.
    private func editDeflateData(of path: String, _ edit: (inout [UInt8], Int) -> Void) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let nameLength = Int(bytes[26]) | Int(bytes[27]) << 8
        let extraLength = Int(bytes[28]) | Int(bytes[29]) << 8
        edit(&bytes, 30 + nameLength + extraLength)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    func testACorruptBlockIsAnInflateError() throws {
        let path = try archive(level: 6, Self.content)
        // BFINAL 1, BTYPE 11: a block type deflate reserves.
        try editDeflateData(of: path) { bytes, start in bytes[start] = 0b111 }
        XCTAssertThrowsError(try read(path, pieceSize: 4096)) { error in
            guard let zipError = error as? ZipError, case .inflate(let why) = zipError.reason else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual(zipError.part, "part.xml")
            XCTAssertEqual(why, "invalid deflate block after 0 inflated bytes")
        }
    }

    /// The entry's raw deflate bytes, as zlib wrote them at `level`.
    private func deflated(level: Int32, _ content: [UInt8]) throws -> [UInt8] {
        let path = try archive(level: level, content)
        let entry = try XCTUnwrap(try ZipArchive(path: path).entry(named: "part.xml"))
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let header = Int(entry.localHeaderOffset)
        let start =
            header + 30 + Int(bytes[header + 26]) + Int(bytes[header + 27]) << 8 + Int(bytes[header + 28])
            + Int(bytes[header + 29]) << 8
        return Array(bytes[start..<start + Int(entry.compressedSize)])
    }

    /// `raw` inflated by an `Inflater` that gets at most `inputPiece` bytes per refill and
    /// gives at most `outputPiece` per call.
    private func inflate(_ raw: [UInt8], inputPiece: Int, outputPiece: Int) throws -> [UInt8] {
        let inflater = Inflater(file: "test.xlsx", part: "part.xml", inputCapacity: inputPiece)
        var consumed = 0
        var piece = [UInt8](repeating: 0, count: outputPiece)
        var inflated: [UInt8] = []
        while true {
            let count = try piece.withUnsafeMutableBytes { output in
                try inflater.inflate(into: output) { input in
                    let count = min(input.count, raw.count - consumed)
                    raw.withUnsafeBytes { source in
                        UnsafeMutableRawBufferPointer(rebasing: input[0..<count]).copyMemory(
                            from: UnsafeRawBufferPointer(rebasing: source[consumed..<consumed + count]))
                    }
                    consumed += count
                    return count
                }
            }
            if count == 0 { return inflated }
            inflated += piece[0..<count]
        }
    }

    func testOneBytePiecesEitherWayInflateTheWhole() throws {
        let content = Array(Self.content.prefix(24_000))
        let raw = try deflated(level: 6, content)
        XCTAssertEqual(try inflate(raw, inputPiece: 1, outputPiece: 1), content)
        XCTAssertEqual(try inflate(raw, inputPiece: 3, outputPiece: 1 << 16), content)
    }

    func testEveryCutOfAStreamIsTruncatedAndAnErrorStaysOne() throws {
        let raw = try deflated(level: 6, Self.content)
        let cuts =
            Array(stride(from: 0, to: raw.count, by: max(1, raw.count / 150))) + Array(raw.count - 40..<raw.count)
        for cut in cuts {
            XCTAssertThrowsError(try inflate(Array(raw[0..<cut]), inputPiece: 4096, outputPiece: 4096), "cut at \(cut)")
            {
                error in
                guard case .truncated = (error as? ZipError)?.reason else { return XCTFail("cut at \(cut): \(error)") }
            }
        }
        // A stopped stream throws the same error again rather than inflating on.
        let inflater = Inflater(file: "test.xlsx", part: "part.xml")
        var output = [UInt8](repeating: 0, count: 64)
        for _ in 0..<2 {
            XCTAssertThrowsError(try output.withUnsafeMutableBytes { try inflater.inflate(into: $0) { _ in 0 } }) {
                error in
                guard case .truncated = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
            }
        }
    }

    func testAStreamWithoutItsFinalBlockIsTruncated() throws {
        let path = try archive(level: 0, Array("hello".utf8))
        // Level 0 writes one stored block, final: clearing BFINAL leaves the stream without an end.
        try editDeflateData(of: path) { bytes, start in
            XCTAssertEqual(bytes[start], 1, "a final stored block")
            bytes[start] = 0
        }
        XCTAssertThrowsError(try read(path, pieceSize: 4096)) { error in
            guard case .truncated(let why) = (error as? ZipError)?.reason else { return XCTFail("\(error)") }
            XCTAssertEqual(why, "deflate stream ends before its end marker")
        }
    }
}
