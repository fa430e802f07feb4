/// A growable byte buffer reused across cells: clearing keeps the storage, appending is a
/// `memcpy`, and it never shrinks, so the hot path allocates only when a cell is longer than
/// any before it.
struct ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the storage; the owner calls this exactly once.
    func deallocate() { base.deallocate() }

    @inline(__always) mutating func removeAll() { count = 0 }

    @inline(__always) mutating func removeLast(_ dropped: Int) { count -= min(dropped, count) }

    @inline(__always) mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        if bytes.count <= 8 {
            // Names and short values: a loop beats a memcpy call.
            for index in 0..<bytes.count { base[count + index] = source[index] }
        } else {
            (base + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    @inline(__always) mutating func append(_ byte: UInt8) {
        if count == capacity { grow(to: count + 1) }
        base[count] = byte
        count += 1
    }

    /// The bytes held, valid until the next mutation.
    @inline(__always) var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
