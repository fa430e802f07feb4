/// Worksheet names Excel accepts: at most 31 characters (Unicode scalars, as libxlsxwriter counts), none of `[]:*?/\`, not starting or
/// ending with `'`, not `History`, and unique regardless of case (ECMA-376 Part 1, §18.2.19,
/// and Excel's own rules on top of it).
public struct SheetNames {
    /// The longest name Excel accepts.
    public static let maximumLength = 31
    private static let forbidden: Set<Character> = ["[", "]", ":", "*", "?", "/", "\\"]

    /// Names handed out so far, lowercased, since Excel compares them without case.
    private var taken: Set<String> = ["history"]

    public init() {}

    /// A valid name close to `wanted` that no earlier call returned: forbidden characters become
    /// `_`, the name is cut to 31 characters, and a repeat gets ` (2)`, ` (3)`… within the limit.
    public mutating func unique(_ wanted: String) -> String {
        let base = Self.sanitised(wanted)
        var name = base
        var number = 2
        while taken.contains(name.lowercased()) {
            let suffix = " (\(number))"
            name = Self.prefix(base, Self.maximumLength - suffix.count) + suffix
            number += 1
        }
        taken.insert(name.lowercased())
        return name
    }

    /// `wanted` with forbidden characters replaced, control characters dropped, leading and
    /// trailing apostrophes and spaces removed, cut to 31 characters; `Sheet` when nothing is left.
    public static func sanitised(_ wanted: String) -> String {
        var name = String(
            wanted.compactMap { character -> Character? in
                if forbidden.contains(character) { return "_" }
                return character.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
                    ? character : nil
            })
        let trimmed: (Character) -> Bool = { $0 == "'" || $0 == " " }
        while let first = name.first, trimmed(first) { name.removeFirst() }
        name = prefix(name, maximumLength)
        while let last = name.last, trimmed(last) { name.removeLast() }
        return name.isEmpty ? "Sheet" : name
    }

    /// The first `count` Unicode scalars, as libxlsxwriter counts a name's length.
    private static func prefix(_ text: String, _ count: Int) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: text.unicodeScalars.prefix(count))
        return String(scalars)
    }
}
