/// The part of `styles.xml` a reader needs: for each cell format (`cellXfs/xf`, the index a
/// cell's `s` attribute names), whether its number format is a date (ECMA-376 Part 1, §18.8).
struct CellFormats: Sendable {
    /// Kind per `cellXfs` index.
    var kinds: [NumberFormatKind] = []

    /// The kind for a cell's style index; unknown indexes are plain numbers.
    @inline(__always) func kind(ofStyle index: Int) -> NumberFormatKind {
        index >= 0 && index < kinds.count ? kinds[index] : .number
    }
}

/// Collects custom number formats and the `cellXfs` list of `styles.xml`.
final class StylesHandler: SAXHandler {
    private var customFormats: [Int: String] = [:]
    private var formatIdsOfCellFormats: [Int] = []
    private var inCellFormats = false

    var cellFormats: CellFormats {
        CellFormats(
            kinds: formatIdsOfCellFormats.map { id in
                customFormats[id].map(NumberFormat.kind(code:)) ?? NumberFormat.kind(builtinId: id)
            })
    }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("numFmt") {
            if let id = attributes.string("numFmtId").flatMap(Int.init), let code = attributes.string("formatCode") {
                customFormats[id] = code
            }
        } else if name.is("cellXfs") {
            inCellFormats = true
        } else if inCellFormats, name.is("xf") {
            formatIdsOfCellFormats.append(attributes.string("numFmtId").flatMap(Int.init) ?? 0)
        }
    }

    override func endElement(_ name: XMLName) {
        if name.is("cellXfs") { inCellFormats = false }
    }

}
