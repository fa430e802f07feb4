import OutputText

/// A fixed-width text table: by default the first column left-aligned and the others
/// right-aligned, one space between columns. Widths count characters, so `▲`/`—` align like any
/// other. Cells and titles have their control characters escaped (a stored name may hold any),
/// so every row stays one line and none drives the terminal.
public struct TextTable {
    /// How a column's cells sit in its width.
    public enum Alignment: Sendable {
        case left, right
    }

    /// Each row's cells with their widths in characters, counted once.
    private var rows: [[(text: String, width: Int)]] = []
    /// Spans over the header: (text, first column, column count), centred over their columns.
    private var groups: [(String, Int, Int)] = []
    private let alignments: [Alignment]
    private let separator: String
    /// The default layout removes trailing spaces; a layout of its own keeps the last cell as is.
    private let trimsTrailingSpaces: Bool

    /// The reports' layout: the first column left-aligned, the others right-aligned, one space
    /// between columns, no trailing spaces.
    public init() {
        alignments = [.left]
        separator = " "
        trimsTrailingSpaces = true
    }

    /// Columns aligned as `alignments` says (right beyond it), `separator` between them, and the
    /// last column never padded, so free text (a path) can go last.
    public init(alignments: [Alignment], separator: String) {
        self.alignments = alignments
        self.separator = separator
        trimsTrailingSpaces = false
    }

    /// Centres `title` over `span` columns from `column`, on a line above the rows.
    public mutating func group(_ title: String, from column: Int, span: Int) {
        groups.append((ControlCharacters.escaped(title), column, span))
    }
    /// Adds a row (the first one added is the header).
    public mutating func add(_ row: [String]) {
        rows.append(
            row.map { cell in
                let text = ControlCharacters.escaped(cell)
                return (text, Self.width(text))
            })
    }

    /// How many characters `text` shows: its scalars when each is its own character (below
    /// U+0300, where combining marks start, or one of the reports' arrows and dashes), else
    /// its characters counted the long way.
    public static func width(_ text: String) -> Int {
        var scalars = 0
        for scalar in text.unicodeScalars {
            guard scalar.value < 0x300 || singleCharacterSymbols.contains(scalar.value) else { return text.count }
            scalars += 1
        }
        return scalars
    }

    /// `–`, `—`, `−`, `▲`, `▼`: never part of a longer character.
    private static let singleCharacterSymbols: Set<UInt32> = [0x2013, 0x2014, 0x2212, 0x25B2, 0x25BC]

    /// The table as lines, each ending in a newline; `colour` paints every cell but the first column's.
    public func render(colour: (String) -> String = { $0 }) -> String {
        let columns = rows.map(\.count).max() ?? 0
        let gap = separator.count
        var widths = Array(repeating: 0, count: columns)
        for row in rows {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.width) }
        }
        // A group's title keeps a space on each side, so that two titles never run together.
        for (title, first, span) in groups where first + span <= columns {
            let available = widths[first..<(first + span)].reduce(0, +) + (span - 1) * gap
            let needed = title.count + 2
            if needed > available { widths[first + span - 1] += needed - available }
        }
        var lines: [String] = []
        if !groups.isEmpty {
            var line = ""
            var column = 0
            for (title, first, span) in groups.sorted(by: { $0.1 < $1.1 }) {
                while column < first {
                    line += String(repeating: " ", count: widths[column] + (column > 0 ? gap : 0))
                    column += 1
                }
                let width = widths[first..<(first + span)].reduce(0, +) + (span - 1) * gap
                let padding = width - title.count
                line +=
                    separator + String(repeating: " ", count: padding - padding / 2) + title
                    + String(repeating: " ", count: padding / 2)
                column = first + span
            }
            lines.append(line.trailingSpacesRemoved)
        }
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                let alignment = column < alignments.count ? alignments[column] : .right
                let unpadded = column == row.count - 1 && alignment == .left
                let padding = unpadded ? 0 : max(0, widths[column] - cell.width)
                let text = column == 0 ? cell.text : colour(cell.text)
                if column > 0 { line += separator }
                if alignment == .left {
                    line += text
                    line.appendSpaces(padding)
                } else {
                    line.appendSpaces(padding)
                    line += text
                }
            }
            lines.append(trimsTrailingSpaces ? line.trailingSpacesRemoved : line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    var trailingSpacesRemoved: String {
        guard utf8.last == UInt8(ascii: " ") else { return self }
        guard let last = utf8.lastIndex(where: { $0 != UInt8(ascii: " ") }) else { return "" }
        // The byte after the last non-space one is a space: a character boundary.
        return String(self[..<utf8.index(after: last)])
    }

    /// Appends `count` spaces.
    fileprivate mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        self += count < Self.spaces.count ? Self.spaces[count] : String(repeating: " ", count: count)
    }

    /// Runs of 0…63 spaces, made once.
    private static let spaces = (0..<64).map { String(repeating: " ", count: $0) }
}
