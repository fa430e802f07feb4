/// Keys numbered in the order they first come, for keys that recur in a pattern: a store-day
/// export lists the same stores in the same order date after date, and each date on a run of
/// rows. The key numbered after the last one found (wrapping to the first), then that one, are
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
        if let recurring = recurringNumber(where: { keys[$0] == key }) {
            last = recurring
            return recurring
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

    /// The number of the key after the last one found (wrapping to the first), or else of that
    /// one, if `matches` takes it: where `number(of:)` looks before it hashes a key, for
    /// a caller that compares keys by their numbers more cheaply than it makes one (and then
    /// tells `found` the number).
    @inlinable public func recurringNumber(where matches: (Int) -> Bool) -> Int? {
        let next = last + 1 < keys.count ? last + 1 : 0
        if next < keys.count, matches(next) { return next }
        return last >= 0 && matches(last) ? last : nil
    }

    /// Notes that the key numbered `number` was found by other means (`recurringNumber`).
    @inlinable public mutating func found(_ number: Int) { last = number }

    /// Forgets every key: numbering starts again from 0.
    @inlinable public mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
        last = -1
    }
}
