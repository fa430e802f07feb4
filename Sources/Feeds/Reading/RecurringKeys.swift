/// Keys numbered in the order they first come, for keys that recur in a pattern: a store-day
/// export lists the same stores in the same order date after date, and each date on a run of
/// rows. The last key found, then the one numbered after it (wrapping to the first), are
/// compared before the key is hashed; only a miss is looked up. Used per row by the feeds'
/// normalisers and the warehouse's store numbering, so it is inlinable: a generic type called
/// across modules unspecialised would cost more than the lookup it saves.
public struct RecurringKeys<Key: Hashable> {
    /// The keys by number.
    @usableFromInline private(set) var keys: [Key] = []
    @usableFromInline var numbers: [Key: Int] = [:]
    /// The number of the last key found (-1 before the first).
    @usableFromInline var last = -1

    public init() {}

    /// How many keys are numbered.
    @inlinable public var count: Int { keys.count }

    /// The number of `key`; a key not seen before is numbered `count`.
    @inlinable public mutating func number(of key: Key) -> Int {
        if last >= 0, keys[last] == key { return last }
        let next = last + 1 < keys.count ? last + 1 : 0
        if next < keys.count, keys[next] == key {
            last = next
            return next
        }
        if let known = numbers[key] {
            last = known
            return known
        }
        last = keys.count
        numbers[key] = last
        keys.append(key)
        return last
    }

    /// Forgets every key: numbering starts again from 0.
    @inlinable public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        last = -1
    }
}
