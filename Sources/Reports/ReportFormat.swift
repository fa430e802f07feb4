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
    public var isDocument: Bool {
        switch self {
        case .xlsx, .pdf: return true
        case .table, .text, .csv, .json, .html: return false
        }
    }
}
