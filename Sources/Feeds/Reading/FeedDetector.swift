import SheetStream

/// Decides which feed a file is (SPEC section 3): `--feed` wins; then tokens of the file name;
/// then header signatures. Several feeds need only store + date, so a file none of these
/// decide is an error naming the headers seen, never a guess.
public struct FeedDetector: Sendable {
    /// File-name tokens per feed, lowercased; the config file can add more.
    public var namePatterns: [(token: String, feed: FeedID)]
    public var options: FeedOptions

    public static let defaultNamePatterns: [(token: String, feed: FeedID)] = [
        ("salesaudit", .salesAudit), ("sales_audit", .salesAudit), ("sales-audit", .salesAudit),
        ("sales audit", .salesAudit), ("credit", .creditApps), ("birdeye", .birdeyeReviews), ("review", .birdeyeReviews),
        ("crm", .crmIntakes), ("intake", .crmIntakes), ("call", .outboundCalls), ("employee", .employeePerformance),
        ("associate", .employeePerformance), ("salesperson", .employeePerformance), ("vendor", .merchSales),
        ("category", .merchSales), ("merch", .merchSales),
    ]

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

    /// The feed of a file: explicit, by name, or by header signature.
    public func detect(_ file: SpreadsheetFile, explicit: FeedID?) throws -> FeedID {
        if let explicit { return explicit }
        if let byName = feed(forFileName: file.path) { return byName }
        var seen: [String] = []
        var candidates = Set<FeedID>()
        for sheet in file.sheets where sheet.kind == "worksheet" || sheet.kind == "csv" {
            struct Done: Error {}
            do {
                try file.readRows(of: sheet) { row in
                    let keys = Set(row.cells.compactMap { TextNormalizer.text(of: $0) }.map(HeaderKey.normalize))
                    // Associates and merch first: their header rows satisfy sales-audit as well.
                    if let feed = FeedCatalog.signatureFirst.first(where: { !FeedCatalog.definition($0).signature.isDisjoint(with: keys) }) {
                        if HeaderMap.match(row, definition: options.definition(feed)) != nil {
                            candidates = [feed]
                            throw Done()
                        }
                    } else if HeaderMap.match(row, definition: options.definition(.salesAudit)) != nil {
                        candidates = [.salesAudit]
                        throw Done()
                    }
                    for feed in FeedID.dataFeeds where !FeedCatalog.signatureFirst.contains(feed)
                        && HeaderMap.match(row, definition: options.definition(feed)) != nil
                    {
                        if !FeedCatalog.definition(feed).signature.isDisjoint(with: keys) { candidates.insert(feed) }
                    }
                    if !candidates.isEmpty { throw Done() }
                    if seen.isEmpty, row.usedWidth > 1 { seen = row.cells.compactMap(TextNormalizer.text(of:)) }
                    if row.number >= options.headerSearchRows { throw Done() }
                }
            } catch is Done {}
            if !candidates.isEmpty { break }
        }
        if candidates.count == 1, let feed = candidates.first { return feed }
        let name = FeedFileReader.fileName(file.path)
        let which = candidates.isEmpty ? "cannot tell which feed this is" : "its headers fit several feeds (\(candidates.map(\.rawValue).sorted().joined(separator: ", ")))"
        throw FeedError(
            file: name,
            message: "\(which); headers seen: \(seen.isEmpty ? "(none)" : seen.joined(separator: ", ")). Name it with --feed (\(FeedID.dataFeeds.map(\.rawValue).joined(separator: ", ")))")
    }
}
