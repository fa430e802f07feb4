import SheetStream

/// Decides which feed a file is (SPEC section 3): `--feed` wins; then tokens of the file name;
/// then header signatures. Several feeds need only store + date, so a file none of these
/// decide is an error naming the headers seen (or, for logs, how many columns; see
/// `FeedOptions.errorsQuoteCells`), never a guess.
public struct FeedDetector: Sendable {
    /// File-name tokens per feed, lowercased; the config file can add more.
    public var namePatterns: [(token: String, feed: FeedID)]
    public var options: FeedOptions

    /// The file-name tokens of the catalog's definitions.
    public static let defaultNamePatterns = FeedCatalog.all.flatMap { definition in
        definition.fileNameTokens.map { (token: $0, feed: definition.id) }
    }

    public init(options: FeedOptions, extraNamePatterns: [(token: String, feed: FeedID)] = []) {
        self.options = options
        namePatterns = extraNamePatterns + Self.defaultNamePatterns
    }

    /// The feed named by the file name alone, if exactly one feed's token appears in it.
    public func feed(forFileName path: String) -> FeedID? {
        let name = FeedFileReader.fileName(path).lowercased()
        let matches = Set(namePatterns.filter { name.contains($0.token) }.map(\.feed))
        return matches.count == 1 ? matches.first : nil
    }

    /// The feed of a file: explicit; else an associate or merch header signature (SPEC section
    /// 3: those win over file-name tokens, so an associate file named like a sales audit is read
    /// as associates); else by name; else by the other header signatures.
    public func detect(_ file: SpreadsheetFile, explicit: FeedID?) throws -> FeedID {
        try detect(FirstRows(of: file, searchRows: options.headerSearchRows), explicit: explicit)
    }

    /// The feed of the file of `firstRows`, as `detect(_:explicit:)` decides it, from rows the
    /// header search can look at again without reading them twice.
    public func detect(_ firstRows: FirstRows, explicit: FeedID?) throws -> FeedID {
        if let explicit { return explicit }
        let file = firstRows.file
        let byName = feed(forFileName: file.path)
        var seen = SeenHeaderRow()
        var candidates = Set<FeedID>()
        // With a name that decides, a file whose rows cannot be read is the reader's to report.
        let scan = { (inspect: (Row, Set<String>) -> Bool) in
            do { try scanHeaderRows(of: firstRows, inspect) } catch  where byName != nil {}
        }
        try scan { row, keys in
            // Associates and merch first: their header rows satisfy sales-audit as well.
            if let feed = FeedCatalog.signatureFirst.first(where: {
                !FeedCatalog.definition($0).signature.isDisjoint(with: keys)
            }) {
                if HeaderMap.match(row, definition: options.definition(feed)) != nil {
                    candidates = [feed]
                    return true
                }
            } else if byName == nil, HeaderMap.match(row, definition: options.definition(.salesAudit)) != nil {
                candidates = [.salesAudit]
                return true
            }
            // The name decides when no associate or merch header row is found.
            if byName != nil { return false }
            for feed in FeedID.dataFeeds
            where !FeedCatalog.signatureFirst.contains(feed)
                && HeaderMap.match(row, definition: options.definition(feed)) != nil
            {
                if !FeedCatalog.definition(feed).signature.isDisjoint(with: keys) { candidates.insert(feed) }
            }
            if !candidates.isEmpty { return true }
            seen.note(row)
            return false
        }
        if let byName, !FeedCatalog.signatureFirst.contains(where: candidates.contains) { return byName }
        if candidates.count == 1, let feed = candidates.first { return feed }
        let name = FeedFileReader.fileName(file.path)
        let which =
            candidates.isEmpty
            ? "cannot tell which feed this is"
            : "its headers fit several feeds (\(candidates.map(\.rawValue).sorted().joined(separator: ", ")))"
        throw FeedError(
            file: name,
            message:
                "\(which); \(seen.described(quotingCells: options.errorsQuoteCells)). Name it with --feed (\(FeedID.dataFeeds.map(\.rawValue).joined(separator: ", ")))"
        )
    }

    /// Shows `inspect` each row of the header search area of every worksheet (or the CSV), with
    /// the row's normalised header keys, until it returns `true`.
    private func scanHeaderRows(of firstRows: FirstRows, _ inspect: (Row, Set<String>) -> Bool) throws {
        for sheet in firstRows.worksheets {
            let found = try firstRows.contains(in: sheet) { row in
                inspect(row, Set(row.cells.compactMap { TextNormalizer.text(of: $0) }.map(HeaderKey.normalize)))
            }
            if found { return }
        }
    }
}
