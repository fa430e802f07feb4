import SheetStream

/// How a row's cells fit a feed's header (SPEC section 26): the field each column names, and
/// what the feed's closest layout still lacks; what `ddkpi headers` prints and what an error
/// says when no header row is found.
public struct HeaderFit: Sendable {
    /// One cell of the row that holds text.
    public struct Column: Sendable, Equatable {
        /// 0-based.
        public var index: Int
        public var header: String
        /// The field the header names, if any.
        public var field: CanonicalField?
        /// Whether it names it through an alias of the config file.
        public var byConfigAlias: Bool

        /// The column's letters (`D`).
        public var letters: String { ColumnName.letters(for: index) }
    }

    /// 1-based row.
    public var row: Int
    public var columns: [Column]
    /// The requirements of the layout closest to this row that no column meets (empty: it fits).
    public var missing: [FieldRequirement]
    private let definition: FeedDefinition

    /// How `row` fits `definition`'s layouts.
    public init(_ row: Row, definition: FeedDefinition) {
        self.row = row.number
        self.definition = definition
        var found = Set<CanonicalField>()
        columns = row.cells.enumerated().compactMap { index, cell in
            guard let text = TextNormalizer.text(of: cell) else { return nil }
            let key = HeaderKey.normalize(text)
            let field = definition.aliases[key]
            if let field { found.insert(field) }
            return Column(
                index: index, header: text, field: field,
                byConfigAlias: field != nil && definition.configAliases.contains(key))
        }
        let unmet = definition.layouts.map { layout in
            layout.filter { requirement in !requirement.anyOf.contains(where: found.contains) }
        }
        missing = unmet.min { $0.count < $1.count } ?? []
    }

    /// Whether the row is a header row of the feed.
    public var fits: Bool { missing.isEmpty }

    /// How many of its columns name a field (the closest row to a header is the one with most).
    public var fieldCount: Int { columns.filter { $0.field != nil }.count }

    /// What is missing, field by field, with the built-in names and the config line that would
    /// add one, then the config aliases that matched: `missing totalItems (built-in names:
    /// "Items", "Units"; add [aliases.sales-audit] totalItems = ["Qty"])`. `quotingCells` false
    /// (JSON logs) leaves the file's own headers out.
    public func explanation(quotingCells: Bool) -> String {
        var suggested = Set<Int>()
        var parts = missing.map { requirement -> String in
            guard requirement.anyOf.count == 1, let field = requirement.anyOf.first else {
                return "missing a weekday column (Mon … Sun)"
            }
            let builtIn = (definition.names[field] ?? []).map { "\"\($0)\"" }.joined(separator: ", ")
            var header = "…"
            if quotingCells, let column = suggestedColumn(for: field, leaving: suggested) {
                suggested.insert(column.index)
                header = column.header
            }
            return "missing \(field.name) (built-in names: \(builtIn); add [aliases.\(definition.id.rawValue)] "
                + "\(field.name) = [\"\(header)\"])"
        }
        parts += columns.filter(\.byConfigAlias).compactMap { column in
            let header = quotingCells ? "\"\(column.header)\"" : "in column \(column.letters)"
            return column.field.map { "config alias \(header) matched \($0.name)" }
        }
        return parts.joined(separator: "; ")
    }

    /// The first column no field claims whose header shares a word with `field`'s name
    /// (`Weekly_Sales` for totalSales), but for `total`, which every total shares.
    private func suggestedColumn(for field: CanonicalField, leaving taken: Set<Int>) -> Column? {
        let words = Set(Self.words(field.name)).subtracting(["total"])
        return columns.first { column in
            column.field == nil && !taken.contains(column.index) && !words.isDisjoint(with: Self.words(column.header))
        }
    }

    /// Lower-cased words of three letters or more, splitting camel case (`totalSales`: total, sales).
    private static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character.isLetter {
                if character.isUppercase, let last = current.last, last.isLowercase {
                    words.append(current)
                    current = ""
                }
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }.filter { $0.count >= 3 }
    }
}
