/// Part-name arithmetic for Open Packaging Conventions relationships (ECMA-376 Part 2 §9.3).
enum PartPath {
    /// The relationships part of a source part: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`;
    /// the package itself (`""`) → `_rels/.rels`.
    static func relationships(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "_rels/\(part).rels" }
        return "\(part[..<slash])/_rels/\(part[part.index(after: slash)...]).rels"
    }

    /// Resolves a relationship target against its source part: absolute targets (`/xl/…`) from the
    /// package root, relative ones from the source's folder, with `.`/`..` segments and `\`
    /// separators normalised.
    static func resolve(_ target: String, from source: String) -> String {
        let target = target.replacingBackslashes()
        var segments: [Substring]
        if target.hasPrefix("/") {
            segments = []
        } else {
            segments = source.split(separator: "/", omittingEmptySubsequences: true)
            if !segments.isEmpty { segments.removeLast() }
        }
        for segment in target.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }
}

/// One `<Relationship>` of a `.rels` part.
struct Relationship {
    var id: String
    /// The last path segment of the relationship type URI (`officeDocument`, `worksheet`, …),
    /// the same under transitional and strict (`purl.oclc.org`) namespaces.
    var kind: String
    var target: String
    var isExternal: Bool
}

/// Collects the relationships of a `.rels` part.
final class RelationshipsHandler: SAXHandler {
    private(set) var relationships: [Relationship] = []

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        guard name.is("Relationship"), let id = attributes.string("Id"), let type = attributes.string("Type"),
            let target = attributes.string("Target")
        else { return }
        let kind = type.split(separator: "/").last.map(String.init) ?? type
        relationships.append(
            Relationship(id: id, kind: kind, target: target, isExternal: attributes.string("TargetMode") == "External"))
    }

}
