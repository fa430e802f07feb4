import SheetStream

/// Text as feeds compare it: trimmed, with non-breaking and other odd spaces as plain spaces.
public enum TextNormalizer {
    /// Trimmed text with non-breaking spaces read as spaces; `nil` when nothing is left.
    public static func clean(_ text: String) -> String? {
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
