import CivilCalendar
import Foundation
import KPI
import Reports

/// One report of a pack, computed once for its scope up to its as-of day and written in each format.
struct PackDocument {
    private enum Content {
        case report(KPIReport)
        case ranking(RankingDocument)
    }

    private let content: Content
    private let options: DocumentOptions
    /// The creation date of its PDF (the report's own day).
    private let date: CivilDate

    init(
        _ report: PackReport, engine: KPIEngine, scope: ScopeFilter, quarter: FiscalQuarter, asOf: CivilDate,
        options: DocumentOptions
    ) throws {
        self.options = options
        switch report {
        case .review:
            let review = try engine.review(quarter: quarter, asOf: asOf, filter: scope)
            content = .report(review)
            date = XLSXReport.date(of: review)
        case .kpi:
            content = .report(try engine.kpi(asOf: asOf, filter: scope))
            date = asOf
        case .employees:
            let document = RankingDocument(
                try engine.employees(asOf: asOf, period: "QTD", filter: scope, top: Self.top))
            content = .ranking(document)
            date = document.date
        case .merchVendor, .merchCategory:
            let document = RankingDocument(
                try engine.merch(
                    quarter: quarter, asOf: asOf, by: report == .merchVendor ? .vendor : .category, filter: scope,
                    top: Self.top))
            content = .ranking(document)
            date = document.date
        }
    }

    /// How many associates, vendors or categories a ranked report lists per scope.
    static let top = 10

    /// Writes the document as `format` to `path`; PDFs through `browser` (one for the whole publish).
    func write(_ format: PackFormat, to path: String, browser: () throws -> ChromiumSession) throws {
        switch (content, format) {
        case (.report(let report), .html):
            try Data(HTMLReport.render(report, options: options).utf8).write(to: URL(fileURLWithPath: path))
        case (.report(let report), .xlsx): try XLSXReport.write(report, to: path, options: options)
        case (.report(let report), .pdf):
            try browser().print(html: HTMLReport.render(report, options: options), to: path, created: date)
        case (.ranking(let document), .html):
            try Data(RankingPage.render(document, options: options).utf8).write(to: URL(fileURLWithPath: path))
        case (.ranking(let document), .xlsx): try RankingWorkbook.write(document, to: path, options: options)
        case (.ranking(let document), .pdf):
            try browser().print(html: RankingPage.render(document, options: options), to: path, created: date)
        }
    }
}
