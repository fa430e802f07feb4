/// A fixed-width text table: the first column left-aligned, the others right-aligned, one space
/// between columns. Widths count characters, so `▲`/`—` align like any other.
struct TextTable {
    private var rows: [[String]] = []
    /// Spans over the header: (text, first column, column count), centred over their columns.
    private var groups: [(String, Int, Int)] = []

    mutating func group(_ title: String, from column: Int, span: Int) { groups.append((title, column, span)) }
    mutating func add(_ row: [String]) { rows.append(row) }

    func render(colour: (String) -> String = { $0 }) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        for (title, first, span) in groups where first + span <= columns {
            let available = widths[first..<(first + span)].reduce(0, +) + span - 1
            if title.count > available { widths[first + span - 1] += title.count - available }
        }
        var lines: [String] = []
        if !groups.isEmpty {
            var line = ""
            var column = 0
            for (title, first, span) in groups.sorted(by: { $0.1 < $1.1 }) {
                while column < first {
                    line += String(repeating: " ", count: widths[column] + (column > 0 ? 1 : 0))
                    column += 1
                }
                let width = widths[first..<(first + span)].reduce(0, +) + span - 1
                let padding = width - title.count
                line += " " + String(repeating: " ", count: padding - padding / 2) + title + String(repeating: " ", count: padding / 2)
                column = first + span
            }
            lines.append(line.trailingSpacesRemoved)
        }
        for row in rows {
            var line = ""
            for (column, cell) in row.enumerated() {
                let padding = String(repeating: " ", count: max(0, widths[column] - cell.count))
                line += column == 0 ? cell + padding : " " + padding + colour(cell)
            }
            lines.append(line.trailingSpacesRemoved)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
