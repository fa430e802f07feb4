/// The ids of a tagged PDF's structure elements made the same on every print of the same page.
///
/// Chromium names a structure element `(nodeNNNNNNNN)` after its DOM node's id, and DOM ids
/// count every node the renderer made, in the order it made them: after other work, or on a
/// busy machine where the parser yields at other points, the same page gets other numbers, and
/// even another order. The elements themselves come out as the same objects in the same order,
/// so each id becomes the rank of the object that defines it (`/ID (node…)` in `N 0 obj`);
/// references to it (a cell's `/Headers`) follow. The id tree's leaf, whose names must stay
/// sorted, is put in the new order, and its `/Limits` follow. Every id keeps its width and the
/// leaf its length, so the cross-reference offsets stay right. (Chromium writes the id tree as
/// one leaf.)
enum StructureIDNumbering {
    private static let prefix = Array("(node".utf8)
    private static let width = 8
    /// `(node` + eight digits + `)`.
    private static let nameLength = prefix.count + width + 1

    /// Renumbers the structure ids in `bytes`, a whole PDF.
    static func renumber(_ bytes: inout [UInt8]) {
        let places = names(in: bytes)
        var definer: [Int: Int] = [:]
        for (start, id) in places where definedHere(at: start, in: bytes) {
            definer[id] = objectNumber(before: start, in: bytes) ?? Int.max
        }
        let order = Set(places.map(\.id)).sorted { (definer[$0] ?? Int.max, $0) < (definer[$1] ?? Int.max, $1) }
        let newID = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0 + 1) })
        for (start, id) in places {
            guard let digits = digits(newID[id] ?? id) else { continue }
            bytes.replaceSubrange(start..<start + width, with: digits)
        }
        sortIDTreeLeaf(&bytes)
    }

    /// Every `(nodeNNNNNNNN)`: where its digits start and the id they spell.
    private static func names(in bytes: [UInt8]) -> [(start: Int, id: Int)] {
        var places: [(start: Int, id: Int)] = []
        var index = 0
        while let found = bytes.firstIndex(of: prefix, from: index) {
            let start = found + prefix.count
            index = start
            guard start + width < bytes.count, bytes[start + width] == UInt8(ascii: ")") else { continue }
            let digits = bytes[start..<start + width]
            guard digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { continue }
            places.append((start, digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }))
        }
        return places
    }

    /// Whether the name whose digits start at `start` is an element's own `/ID`.
    private static func definedHere(at start: Int, in bytes: [UInt8]) -> Bool {
        let key = Array("/ID ".utf8)
        let keyStart = start - prefix.count - key.count
        return keyStart >= 0 && bytes[keyStart..<keyStart + key.count].elementsEqual(key)
    }

    /// The number of the object (`N 0 obj`) that holds `offset`.
    private static func objectNumber(before offset: Int, in bytes: [UInt8]) -> Int? {
        let marker = Array(" 0 obj".utf8)
        var index = offset - marker.count
        while index > 0 {
            if bytes[index] == marker[0], bytes[index..<index + marker.count].elementsEqual(marker) {
                var first = index
                while first > 0, bytes[first - 1] >= UInt8(ascii: "0"), bytes[first - 1] <= UInt8(ascii: "9") {
                    first -= 1
                }
                return Int(String(decoding: bytes[first..<index], as: UTF8.self))
            }
            index -= 1
        }
        return nil
    }

    /// Puts the id tree leaf's `(name) N 0 R` pairs in name order and sets its `/Limits` to the
    /// first and last name, leaving both alone unless the leaf keeps its length.
    private static func sortIDTreeLeaf(_ bytes: inout [UInt8]) {
        let opening = Array("/Names [".utf8) + prefix
        guard let found = bytes.firstIndex(of: opening, from: 0),
            let close = bytes[found...].firstIndex(of: UInt8(ascii: "]"))
        else { return }
        let start = found + opening.count - prefix.count
        let separator = Array(" ".utf8) + prefix
        var pairs: [ArraySlice<UInt8>] = []
        var pairStart = start
        while let next = bytes.firstIndex(of: separator, from: pairStart + 1), next < close {
            pairs.append(bytes[pairStart..<next])
            pairStart = next + 1
        }
        pairs.append(bytes[pairStart..<close])
        guard pairs.allSatisfy({ $0.count > nameLength }) else { return }
        let sorted = pairs.sorted { $0.prefix(nameLength).lexicographicallyPrecedes($1.prefix(nameLength)) }
        let leaf = Array(sorted.map(Array.init).joined(separator: [UInt8(ascii: " ")]))
        guard leaf.count == close - start, let first = sorted.first, let last = sorted.last else { return }
        bytes.replaceSubrange(start..<close, with: leaf)
        // The leaf's own `/Limits [(first) (last)]`, just before its names.
        let limits = Array("/Limits [".utf8)
        let searchStart = max(0, found - limits.count - 2 * nameLength - 16)
        guard let limitsFound = bytes.firstIndex(of: limits, from: searchStart), limitsFound < found else {
            return
        }
        let limitsStart = limitsFound + limits.count
        bytes.replaceSubrange(limitsStart..<limitsStart + nameLength, with: first.prefix(nameLength))
        let secondStart = limitsStart + nameLength + 1
        bytes.replaceSubrange(secondStart..<secondStart + nameLength, with: last.prefix(nameLength))
    }

    /// `value` as eight digits, or `nil` when it needs more.
    private static func digits(_ value: Int) -> [UInt8]? {
        let text = String(value)
        guard text.count <= width else { return nil }
        return Array((String(repeating: "0", count: width - text.count) + text).utf8)
    }
}
