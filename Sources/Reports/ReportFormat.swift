/// The formats every report and listing comes in (SPEC section 12): text for a terminal or a
/// file, and the documents only a file can hold. Each renderer says which it writes.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Aligned text for a terminal: `table` in kpi, the ranked reports and the listings.
    case table
    /// Aligned text for a terminal: `text` in the review, `explain` and `alerts`.
    case text
    case csv, json
    /// One self-contained page (`HTMLReport`, `RankingPage`).
    case html
    /// A workbook (`XLSXReport`, `RankingWorkbook`): a document.
    case xlsx
    /// The HTML page printed by a headless Chromium (`ChromiumPrinter`): a document.
    case pdf

    /// Whether only a file can hold it (xlsx, pdf).
    public var isDocument: Bool { if case .document = kind { true } else { false } }

    /// The format as the renderers take it: text (a terminal's or a file's), or a document.
    public var kind: Kind {
        switch self {
        case .table, .text: return .text(.aligned)
        case .csv: return .text(.csv)
        case .json: return .text(.json)
        case .html: return .text(.html)
        case .xlsx: return .document(.xlsx)
        case .pdf: return .document(.pdf)
        }
    }

    /// A format as the renderers take it.
    public enum Kind: Sendable {
        case text(Text)
        case document(Document)
    }

    /// The formats a renderer returns as text: aligned columns (`table`, `text`), CSV, JSON, an HTML page.
    public enum Text: Sendable {
        case aligned, csv, json, html
    }

    /// The formats only a file can hold.
    public enum Document: Sendable {
        case xlsx, pdf
    }
}
