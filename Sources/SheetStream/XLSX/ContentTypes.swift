/// The `Override` entries of `[Content_Types].xml` (ECMA-376 Part 2 §10.1.2), used to locate
/// parts when a workbook's relationships part is unreadable.
final class ContentTypesHandler: SAXHandler {
    /// (part name without leading `/`, content type) in document order.
    private(set) var overrides: [(part: String, contentType: String)] = []

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        guard name.is("Override"), let part = attributes.string("PartName"),
            let type = attributes.string("ContentType")
        else { return }
        overrides.append((PartPath.resolve(part, from: ""), type))
    }

    /// Relationships rebuilt from content types: worksheets in the numeric order of their part
    /// names (`sheet2.xml` before `sheet10.xml`), given ids `fallback1`, `fallback2`, ….
    func inferredRelationships(workbookPart: String) -> [Relationship] {
        func parts(ofType suffix: String) -> [String] {
            overrides.filter { $0.contentType.hasSuffix(suffix) }.map(\.part)
        }
        let sheets = parts(ofType: ".worksheet+xml").sorted { Self.numericSuffix($0) < Self.numericSuffix($1) }
        var relationships = sheets.enumerated().map { index, part in
            Relationship(id: "fallback\(index + 1)", kind: "worksheet", target: "/" + part, isExternal: false)
        }
        for (suffix, kind) in [(".sharedStrings+xml", "sharedStrings"), (".styles+xml", "styles")] {
            if let part = parts(ofType: suffix).first {
                relationships.append(Relationship(id: kind, kind: kind, target: "/" + part, isExternal: false))
            }
        }
        return relationships
    }

    private static func numericSuffix(_ part: String) -> Int {
        Int(String(part.reversed().drop { !$0.isNumber }.prefix { $0.isNumber }.reversed())) ?? Int.max
    }
}
