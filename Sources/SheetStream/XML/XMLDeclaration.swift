/// The XML declaration (XML 1.0 §2.8, `<?xml version="1.0" encoding="…" standalone="…"?>`),
/// checked as strictly as libxml2 checks it.
enum XMLDeclaration {
    /// The declared encoding of `content` (the bytes between `<?xml` and `?>`), `nil` when none
    /// is declared; throws `error(reason)` when the declaration is malformed.
    static func encoding(_ content: [UInt8], error: (String) -> Error) throws -> String? {
        var index = 0
        func skipSpace() -> Bool {
            let start = index
            while index < content.count, isSpace(content[index]) { index += 1 }
            return index > start
        }
        /// `name = "value"` (either quote); the value, or `nil` when `name` is not next.
        func pseudoAttribute(_ name: String) throws -> String? {
            let bytes = Array(name.utf8)
            guard content.count - index >= bytes.count, Array(content[index..<(index + bytes.count)]) == bytes else {
                return nil
            }
            index += bytes.count
            _ = skipSpace()
            guard index < content.count, content[index] == UInt8(ascii: "=") else {
                throw error("the XML declaration's \(name) has no '='")
            }
            index += 1
            _ = skipSpace()
            guard index < content.count, content[index] == UInt8(ascii: "\"") || content[index] == UInt8(ascii: "'")
            else {
                throw error("the XML declaration's \(name) is not quoted")
            }
            let quote = content[index]
            guard let close = content[(index + 1)...].firstIndex(of: quote) else {
                throw error("the XML declaration's \(name) is not closed")
            }
            let value = String(decoding: content[(index + 1)..<close], as: UTF8.self)
            index = close + 1
            return value
        }
        guard skipSpace(), let version = try pseudoAttribute("version") else {
            throw error("the XML declaration has no version")
        }
        // `1.` then digits, none required: what libxml2 takes (XML 1.0's fifth edition asks for
        // one at least, its earlier editions for none); a worksheet the one parser reads, the
        // other must read too (the differential fuzz target found `version="1."`).
        guard version.hasPrefix("1."), version.dropFirst(2).allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw error("the XML declaration's version \"\(version)\" is not 1.x")
        }
        var encoding: String?
        var spaced = skipSpace()
        if spaced, let declared = try pseudoAttribute("encoding") {
            guard let first = declared.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
                declared.unicodeScalars.allSatisfy({
                    $0.isASCII
                        && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
                })
            else { throw error("the XML declaration's encoding \"\(declared)\" is not an encoding name") }
            encoding = declared
            spaced = skipSpace()
        }
        if spaced, let standalone = try pseudoAttribute("standalone") {
            guard standalone == "yes" || standalone == "no" else {
                throw error("the XML declaration's standalone is not yes or no")
            }
            _ = skipSpace()
        }
        guard index == content.count else {
            throw error("the XML declaration has something unexpected at byte \(index + 5)")
        }
        return encoding
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
