/// Whether a sheet shows in Excel's tab bar (ECMA-376 Part 1, §18.18.68 ST_SheetState).
public enum SheetState: String, Sendable {
    case visible, hidden, veryHidden
}

/// A sheet as `workbook.xml` lists it.
public struct SheetInfo: Sendable, Equatable {
    /// The tab name.
    public var name: String
    /// 0-based position in the workbook's sheet order.
    public var index: Int
    public var state: SheetState
    /// The worksheet part, resolved through the workbook's relationships; `nil` when it names no part.
    public var partName: String?
    /// The relationship kind of the part (`worksheet`, `chartsheet`, `dialogsheet`, …).
    public var kind: String

    /// Whether the sheet holds cells: a worksheet (or a CSV file's one sheet), not a chart,
    /// dialog or macro sheet.
    public var isWorksheet: Bool { kind == "worksheet" || kind == "csv" }

    /// The kind in words for messages: `chart sheet`, `dialog sheet`, `macro sheet`, `worksheet`.
    public var kindName: String {
        switch kind {
        case "worksheet", "csv": return "worksheet"
        case "chartsheet": return "chart sheet"
        case "dialogsheet": return "dialog sheet"
        case "xlMacrosheet", "xlIntlMacrosheet": return "macro sheet"
        default: return "\(kind) sheet"
        }
    }

    public init(name: String, index: Int, state: SheetState, partName: String?, kind: String) {
        self.name = name
        self.index = index
        self.state = state
        self.partName = partName
        self.kind = kind
    }
}

/// Reads sheet names, order, state, relationship ids and the date system from `workbook.xml`.
final class WorkbookHandler: SAXHandler {
    struct SheetEntry {
        var name: String
        var state: SheetState
        var relationshipId: String
    }

    private(set) var sheets: [SheetEntry] = []
    private(set) var uses1904 = false

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        if name.is("workbookPr") {
            let value = attributes.string("date1904")?.lowercased()
            uses1904 = value == "1" || value == "true"
        } else if name.is("sheet") {
            sheets.append(
                SheetEntry(
                    name: OOXMLEscapes.decode(attributes.string("name") ?? "Sheet\(sheets.count + 1)"),
                    state: attributes.string("state").flatMap(SheetState.init(rawValue:)) ?? .visible,
                    relationshipId: attributes.string("id", namespaced: true) ?? ""))
        }
    }

}
