import SheetStream

/// Text as feeds compare it: trimmed, with non-breaking and other odd spaces as plain spaces.
public enum TextNormalizer {
    /// Trimmed text with non-breaking spaces read as spaces; `nil` when nothing is left.
    public static func clean(_ text: String) -> String? {
        if let ascii = trimmedASCII(text) { return ascii.isEmpty ? nil : ascii }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xA0, 0x2007, 0x202F, 0x2009, 0x200A, 0x3000: scalars.append(" ")
            case 0x200B, 0xFEFF: continue
            default: scalars.append(scalar)
            }
        }
        let cleaned = String(scalars)
        let trimmed = cleaned.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()
        return trimmed.isEmpty ? nil : String(trimmed)
    }

    /// The fast path for ASCII text (nearly every cell): trims ASCII whitespace without
    /// walking Unicode scalars; `nil` when the text is not ASCII.
    private static func trimmedASCII(_ text: String) -> String? {
        let found = text.withUTF8Bytes { utf8 -> (first: Int, last: Int)? in
            var first = -1
            var last = -1
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x80 else { return nil }
                if byte != 0x20 && (byte < 0x09 || byte > 0x0D) {
                    if first < 0 { first = index }
                    last = index
                }
            }
            return (first, last)
        }
        guard let (first, last) = found else { return nil }
        if first < 0 { return "" }
        if first == 0 && last == text.utf8.count - 1 { return text }
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: first)
        let end = utf8.index(utf8.startIndex, offsetBy: last + 1)
        return String(text[start..<end])
    }

    /// Whether `clean(text)` may hold ASCII-case-insensitive `word`: a cheap filter before
    /// cleaning. Cleaning never lengthens text and changes ASCII text only at its ends, so text
    /// shorter than the word (a store code) is told by its count, and ASCII text by a search;
    /// other text may lose zero-width spaces inside a word ("Grand To\u{200B}tal"), so it may.
    @inline(__always) static func mayHoldOnceCleaned(_ text: String, _ word: StaticString) -> Bool {
        let needle = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard text.utf8.count >= needle.count else { return false }
        func search(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let firstNeedle = needle.first else { return true }
            for start in 0...(bytes.count - needle.count) where bytes[start] | 0x20 == firstNeedle {
                var matched = true
                for offset in 1..<needle.count where bytes[start + offset] | 0x20 != needle[offset] {
                    matched = false
                    break
                }
                if matched { return true }
            }
            return bytes.contains { $0 >= 0x80 }
        }
        return text.withUTF8Bytes(search)
    }

    /// The text of any cell as a user would read it (numbers in shortest form), cleaned.
    public static func text(of cell: Cell) -> String? {
        if case .string(let text) = cell { return clean(text) }
        return cell.isEmpty ? nil : clean(CellText.text(cell))
    }

    /// Lowercased, spaces collapsed: the key names and aliases are matched by.
    public static func matchKey(_ text: String) -> String {
        (clean(text) ?? "").lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
