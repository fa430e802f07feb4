#if canImport(Glibc)
import Glibc
#endif

/// SHA-256 (FIPS 180-4) of files, for the ledger's duplicate detection. Streams the file in
/// 1 MiB reads; small enough to own rather than link a crypto library for one digest.
public struct SHA256 {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    public init() {}

    /// Adds bytes to the digest.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length += UInt64(bytes.count)
        var input = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, input.count)
            pending.append(contentsOf: input.prefix(take))
            input = input.dropFirst(take)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress(blocks: $0) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = input.count / 64 * 64
        if whole > 0 { compress(blocks: UnsafeRawBufferPointer(rebasing: input.prefix(whole))) }
        pending.append(contentsOf: input.dropFirst(whole))
    }

    /// The digest as 64 lowercase hex digits.
    public mutating func finalize() -> String {
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let savedLength = length
        tail.withUnsafeBytes { update($0) }
        length = savedLength
        return state.map { word in
            let hex = String(word, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    /// The SHA-256 and byte size of a file.
    public static func ofFile(_ path: String) throws -> (digest: String, size: UInt64) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw WarehouseError(message: "\(path): cannot open: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size: UInt64 = 0
        while true {
            let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw WarehouseError(message: "\(path): read failed: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            size += UInt64(got)
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return (hasher.finalize(), size)
    }

    /// Runs the compression function over whole 64-byte blocks, with the state in locals and
    /// the rounds unrolled eight at a time, so that the working variables rotate by renaming
    /// instead of by moves.
    private mutating func compress(blocks: UnsafeRawBufferPointer) {
        var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
        var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
        Self.k.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                var offset = 0
                while offset + 64 <= blocks.count {
                    for index in 0..<16 {
                        w[index] = UInt32(bigEndian: blocks.loadUnaligned(fromByteOffset: offset + index * 4, as: UInt32.self))
                    }
                    for index in 16..<64 {
                        let s0 = w[index - 15].rotatedRight(7) ^ w[index - 15].rotatedRight(18) ^ (w[index - 15] >> 3)
                        let s1 = w[index - 2].rotatedRight(17) ^ w[index - 2].rotatedRight(19) ^ (w[index - 2] >> 10)
                        w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
                    }
                    var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                    for index in stride(from: 0, to: 64, by: 8) {
                        Self.round(a, b, c, &d, e, f, g, &h, k[index] &+ w[index])
                        Self.round(h, a, b, &c, d, e, f, &g, k[index + 1] &+ w[index + 1])
                        Self.round(g, h, a, &b, c, d, e, &f, k[index + 2] &+ w[index + 2])
                        Self.round(f, g, h, &a, b, c, d, &e, k[index + 3] &+ w[index + 3])
                        Self.round(e, f, g, &h, a, b, c, &d, k[index + 4] &+ w[index + 4])
                        Self.round(d, e, f, &g, h, a, b, &c, k[index + 5] &+ w[index + 5])
                        Self.round(c, d, e, &f, g, h, a, &b, k[index + 6] &+ w[index + 6])
                        Self.round(b, c, d, &e, f, g, h, &a, k[index + 7] &+ w[index + 7])
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    offset += 64
                }
            }
        }
        state = [h0, h1, h2, h3, h4, h5, h6, h7]
    }

    /// One round (FIPS 180-4 §6.2.2 step 3), written for renaming: `d` becomes the new `e` and
    /// `h` the new `a`; `roundInput` is K[t] + W[t].
    @inline(__always) private static func round(
        _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
        _ roundInput: UInt32
    ) {
        let t1 = h &+ (e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)) &+ (g ^ (e & (f ^ g))) &+ roundInput
        let t2 = (a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)) &+ ((a & b) | (c & (a | b)))
        d &+= t1
        h = t1 &+ t2
    }
}

extension UInt32 {
    @inline(__always) func rotatedRight(_ count: UInt32) -> UInt32 { (self >> count) | (self << (32 - count)) }
}
