/// Limits that keep a hostile zip from exhausting time, memory or disk.
public struct ZipLimits: Sendable {
    /// The most bytes one entry may inflate to.
    public var maxEntryBytes: UInt64
    /// The highest inflated:compressed ratio allowed once an entry passes `ratioAllowance` bytes.
    public var maxCompressionRatio: UInt64
    /// Entries up to this many inflated bytes are not ratio-checked (small parts compress very well).
    public var ratioAllowance: UInt64
    /// The most entries a central directory may list.
    public var maxEntries: Int

    public init(
        maxEntryBytes: UInt64 = 8 << 30, maxCompressionRatio: UInt64 = 250, ratioAllowance: UInt64 = 16 << 20,
        maxEntries: Int = 100_000
    ) {
        self.maxEntryBytes = maxEntryBytes
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioAllowance = ratioAllowance
        self.maxEntries = maxEntries
    }

    public static let `default` = ZipLimits()
}

/// One entry of a zip central directory.
public struct ZipEntry: Sendable {
    /// The name as stored, with `\` turned into `/` and any leading `/` removed.
    public let name: String
    public let method: Int
    public let flags: Int
    public let crc32: UInt32
    public let compressedSize: UInt64
    public let uncompressedSize: UInt64
    let localHeaderOffset: UInt64

    /// Whether the entry is encrypted (general-purpose flag bit 0).
    public var isEncrypted: Bool { flags & 1 != 0 }
}

/// A zip container read in place from its central directory (PKWARE APPNOTE 6.3, with zip64).
///
/// Nothing is extracted: entries are streamed through `ZipEntryStream`. Part names are matched
/// case-insensitively and with `\` read as `/`, as ECMA-376 Part 2 §6.2.2.3 requires of packages,
/// and two entries naming the same part that way are refused (§9.1.1.1: part names equivalent by
/// ASCII case-insensitive comparison must not both exist), rather than one silently winning; so is
/// an entry whose local header names another part than its central-directory entry (APPNOTE
/// 4.3.7 and 4.3.12 give each entry one name), which tools reading either would take differently.
public final class ZipArchive {
    /// The path the archive was opened from.
    public var path: String { file.path }
    /// Entries in central-directory order.
    public let entries: [ZipEntry]
    public let limits: ZipLimits
    let file: ReadOnlyFile
    private let entryIndexByKey: [String: Int]

    /// Opens a zip file and reads its central directory.
    public init(path: String, limits: ZipLimits = .default) throws {
        file = try ReadOnlyFile(path: path)
        self.limits = limits
        entries = try CentralDirectoryReader(file: file, limits: limits).readEntries()
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() where !entry.name.hasSuffix("/") {
            let key = Self.key(entry.name)
            if let earlier = index[key] {
                throw ZipError(file: path, .duplicatePart(first: entries[earlier].name, second: entry.name))
            }
            index[key] = position
            try Self.checkLocalName(of: entry, in: file)
        }
        entryIndexByKey = index
    }

    /// Throws when `entry`'s local header names another part than the central directory does.
    /// A local header that is missing or cut short is left to `ZipEntryStream`, which reports it
    /// when the entry is read.
    private static func checkLocalName(of entry: ZipEntry, in file: ReadOnlyFile) throws {
        guard entry.localHeaderOffset <= file.size, file.size - entry.localHeaderOffset >= 30 else { return }
        let header = try file.readExactly(30, at: entry.localHeaderOffset, what: "local header of \(entry.name)")
        guard header.u32(0) == 0x0403_4b50 else { return }
        let nameLength = header.u16(26)
        guard file.size - entry.localHeaderOffset - 30 >= UInt64(nameLength) else { return }
        let bytes = try file.readExactly(nameLength, at: entry.localHeaderOffset + 30, what: "name of \(entry.name)")
        var local = String(decoding: bytes, as: UTF8.self).replacingBackslashes()
        while local.hasPrefix("/") { local.removeFirst() }
        guard local == entry.name else {
            throw ZipError(file: file.path, part: entry.name, .localNameMismatch(local: local))
        }
    }

    /// The entry with a part name, matched case-insensitively, `\` as `/`, leading `/` ignored.
    public func entry(named name: String) -> ZipEntry? {
        entryIndexByKey[Self.key(name)].map { entries[$0] }
    }

    /// Opens a stream of an entry's inflated bytes.
    public func stream(_ entry: ZipEntry) throws -> ZipEntryStream {
        try ZipEntryStream(file: file, entry: entry, limits: limits)
    }

    /// Reads a whole (small) entry into memory, refusing entries over `maxBytes`.
    public func contents(of entry: ZipEntry, maxBytes: Int = 64 << 20) throws -> [UInt8] {
        guard entry.uncompressedSize <= UInt64(maxBytes) else {
            throw ZipError(
                file: path, part: entry.name, .entryTooLarge(declared: entry.uncompressedSize, limit: UInt64(maxBytes)))
        }
        let stream = try stream(entry)
        var bytes = [UInt8](repeating: 0, count: Int(entry.uncompressedSize))
        var filled = 0
        while filled < bytes.count {
            let got = try bytes.withUnsafeMutableBytes { buffer in
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        try stream.finishReading()
        return bytes
    }

    static func key(_ name: String) -> String {
        var normalized = name.replacingBackslashes()
        while normalized.hasPrefix("/") { normalized.removeFirst() }
        return normalized.lowercased()
    }
}

extension String {
    func replacingBackslashes() -> String {
        contains("\\") ? String(map { $0 == "\\" ? "/" : $0 }) : self
    }
}

/// Finds and parses the end-of-central-directory record(s) and the central directory.
private struct CentralDirectoryReader {
    let file: ReadOnlyFile
    let limits: ZipLimits

    private static let eocdSignature: UInt64 = 0x0605_4b50
    private static let zip64LocatorSignature: UInt64 = 0x0706_4b50
    private static let zip64EndSignature: UInt64 = 0x0606_4b50
    private static let centralHeaderSignature: UInt64 = 0x0201_4b50
    private static let oleSignature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    func readEntries() throws -> [ZipEntry] {
        let head = try file.readExactly(Int(min(file.size, 8)), at: 0, what: "header")
        if head == Self.oleSignature { throw ZipError(file: file.path, .encryptedOrLegacy) }
        guard file.size >= 22 else { throw ZipError(file: file.path, .notAZip) }
        let tailLength = Int(min(file.size, 22 + 65_535))
        let tailStart = file.size - UInt64(tailLength)
        let tail = try file.readExactly(tailLength, at: tailStart, what: "end of central directory")
        guard let eocd = Self.findEndRecord(in: tail) else {
            if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
                throw ZipError(file: file.path, .truncated("no end-of-central-directory record"))
            }
            throw ZipError(file: file.path, .notAZip)
        }
        var entryCount = UInt64(tail.u16(eocd + 10))
        var directorySize = tail.u32(eocd + 12)
        var directoryOffset = tail.u32(eocd + 16)
        let eocdFileOffset = tailStart + UInt64(eocd)
        if eocdFileOffset >= 20 {
            let locator = try file.readExactly(20, at: eocdFileOffset - 20, what: "zip64 locator")
            if locator.u32(0) == Self.zip64LocatorSignature {
                let zip64Offset = locator.u64(8)
                let record = try file.readExactly(56, at: zip64Offset, what: "zip64 end of central directory")
                guard record.u32(0) == Self.zip64EndSignature else {
                    throw ZipError(file: file.path, .malformed("zip64 locator points at no zip64 record"))
                }
                entryCount = record.u64(32)
                directorySize = record.u64(40)
                directoryOffset = record.u64(48)
            }
        }
        guard entryCount <= UInt64(limits.maxEntries) else {
            throw ZipError(file: file.path, .malformed("\(entryCount) entries, over the limit of \(limits.maxEntries)"))
        }
        guard directoryOffset <= file.size, directorySize <= file.size - directoryOffset,
            directorySize <= 256 << 20
        else { throw ZipError(file: file.path, .truncated("central directory lies past the end of the file")) }
        let directory = try file.readExactly(Int(directorySize), at: directoryOffset, what: "central directory")
        return try parse(directory: directory, expectedCount: Int(entryCount))
    }

    /// The offset of the last end-of-central-directory record whose comment fits the tail.
    private static func findEndRecord(in tail: [UInt8]) -> Int? {
        var position = tail.count - 22
        while position >= 0 {
            if tail[position] == 0x50, tail[position + 1] == 0x4B, tail[position + 2] == 0x05,
                tail[position + 3] == 0x06, position + 22 + tail.u16(position + 20) <= tail.count
            {
                return position
            }
            position -= 1
        }
        return nil
    }

    private func parse(directory: [UInt8], expectedCount: Int) throws -> [ZipEntry] {
        var entries: [ZipEntry] = []
        entries.reserveCapacity(min(expectedCount, 4096))
        var offset = 0
        while offset + 46 <= directory.count, directory.u32(offset) == Self.centralHeaderSignature {
            let nameLength = directory.u16(offset + 28)
            let extraLength = directory.u16(offset + 30)
            let commentLength = directory.u16(offset + 32)
            let end = offset + 46 + nameLength + extraLength + commentLength
            guard end <= directory.count else {
                throw ZipError(file: file.path, .truncated("central directory entry \(entries.count + 1) is cut short"))
            }
            let name = String(decoding: directory[(offset + 46)..<(offset + 46 + nameLength)], as: UTF8.self)
            var compressed = directory.u32(offset + 20)
            var uncompressed = directory.u32(offset + 24)
            var localOffset = directory.u32(offset + 42)
            try applyZip64Extra(
                directory[(offset + 46 + nameLength)..<(offset + 46 + nameLength + extraLength)],
                uncompressed: &uncompressed, compressed: &compressed, localOffset: &localOffset, name: name)
            var normalized = name.replacingBackslashes()
            while normalized.hasPrefix("/") { normalized.removeFirst() }
            entries.append(
                ZipEntry(
                    name: normalized, method: directory.u16(offset + 10), flags: directory.u16(offset + 8),
                    crc32: UInt32(directory.u32(offset + 16)), compressedSize: compressed,
                    uncompressedSize: uncompressed, localHeaderOffset: localOffset))
            guard entries.count <= limits.maxEntries else {
                throw ZipError(file: file.path, .malformed("more than \(limits.maxEntries) entries"))
            }
            offset = end
        }
        if entries.isEmpty && expectedCount > 0 {
            throw ZipError(file: file.path, .malformed("central directory has no readable entries"))
        }
        return entries
    }

    /// Replaces 0xFFFFFFFF sizes and offset with the zip64 extended-information extra field's values.
    private func applyZip64Extra(
        _ extra: ArraySlice<UInt8>, uncompressed: inout UInt64, compressed: inout UInt64, localOffset: inout UInt64,
        name: String
    ) throws {
        let bytes = Array(extra)
        var position = 0
        while position + 4 <= bytes.count {
            let id = bytes.u16(position)
            let size = bytes.u16(position + 2)
            let dataStart = position + 4
            guard dataStart + size <= bytes.count else { break }
            if id == 0x0001 {
                var cursor = dataStart
                func next() throws -> UInt64 {
                    guard cursor + 8 <= dataStart + size else {
                        throw ZipError(file: file.path, part: name, .malformed("zip64 extra field is too short"))
                    }
                    defer { cursor += 8 }
                    return bytes.u64(cursor)
                }
                if uncompressed == 0xFFFF_FFFF { uncompressed = try next() }
                if compressed == 0xFFFF_FFFF { compressed = try next() }
                if localOffset == 0xFFFF_FFFF { localOffset = try next() }
                return
            }
            position = dataStart + size
        }
    }
}
