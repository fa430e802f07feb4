/// Terminal colour for change cells: green `▲`, red `▼`, as well as the arrow (never colour alone).
enum ChangeColour {
    /// The cell wrapped in an ANSI colour when it starts with an arrow, else as it is.
    static func paint(_ cell: String) -> String {
        if cell.hasPrefix("▲") { return "\u{1B}[32m" + cell + "\u{1B}[0m" }
        if cell.hasPrefix("▼") { return "\u{1B}[31m" + cell + "\u{1B}[0m" }
        return cell
    }

    /// `paint` when `enabled`, else the identity: what `TextTable.render(colour:)` takes.
    static func painter(_ enabled: Bool) -> (String) -> String { enabled ? paint : { $0 } }
}
