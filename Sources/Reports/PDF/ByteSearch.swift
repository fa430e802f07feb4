extension [UInt8] {
    /// Where `needle` (not empty) first occurs at or after `start`: the PDF rewrites' search for
    /// a marker in a printed file's bytes.
    func firstIndex(of needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= count, start <= count - needle.count else { return nil }
        for index in start...(count - needle.count) where self[index] == first {
            if self[index..<index + needle.count].elementsEqual(needle) { return index }
        }
        return nil
    }
}
