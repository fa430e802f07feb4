import ArgumentParser
import CivilCalendar
import Foundation
import KPI
import OutputText
import Reports

#if canImport(Glibc)
import Glibc
#endif

/// `ddkpi kpi --as-of YYYY-MM-DD`: week-, month-, quarter- and year-to-date against goals and last year.
struct KPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kpi", abstract: "Week-, month-, quarter- and year-to-date KPIs against goals and last year.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, csv, json, xlsx, html, pdf }

    @OptionGroup var global: GlobalOptions

    @Option(help: "The last day included (YYYY-MM-DD).")
    var asOf: String

    @Option(help: "Only these stores (repeatable).")
    var store: [String] = []

    @Option(help: "Only this region's stores and the region.")
    var region: String?

    @Option(help: "Output format: table, csv, json, xlsx, html or pdf (xlsx and pdf need --output).")
    var format: Format = .table

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    func validate() throws {
        guard CivilDate(iso8601: asOf) != nil else { throw ValidationError("--as-of \(asOf): expected a date as YYYY-MM-DD") }
        if !store.isEmpty && region != nil { throw ValidationError("give --store or --region, not both") }
        try validateOutput(format: format.rawValue, output: output)
    }

    func run() throws {
        guard let day = CivilDate(iso8601: asOf) else { throw ValidationError("--as-of \(asOf): expected YYYY-MM-DD") }
        let report = try ReportContext(global: global).engine.kpi(asOf: day, filter: scopeFilter(store: store, region: region))
        try emit(report, format: format.rawValue, to: output)
    }
}

/// `ddkpi review --quarter YYYYQn`: the quarterly business review.
struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The quarterly business review: each month and the quarter, per store, region and company.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, csv, json, xlsx, html, pdf }

    @OptionGroup var global: GlobalOptions

    @Option(help: "The fiscal quarter, such as 2025Q2.")
    var quarter: String

    @Option(help: "Only these stores (repeatable).")
    var store: [String] = []

    @Option(help: "Only this region's stores and the region.")
    var region: String?

    @Option(help: "Output format: text, csv, json, xlsx, html or pdf (xlsx and pdf need --output).")
    var format: Format = .text

    @Option(help: "Write the review to this file instead of standard output.")
    var output: String?

    func validate() throws {
        guard FiscalCalendar().quarter(named: quarter) != nil else {
            throw ValidationError("--quarter \(quarter): expected a quarter such as 2025Q2 (Q1 to Q4)")
        }
        if !store.isEmpty && region != nil { throw ValidationError("give --store or --region, not both") }
        try validateOutput(format: format.rawValue, output: output)
    }

    func run() throws {
        let context = try ReportContext(global: global)
        guard let fiscalQuarter = context.engine.calendar.quarter(named: quarter) else {
            throw ValidationError("--quarter \(quarter): expected a quarter such as 2025Q2")
        }
        let report = try context.engine.review(quarter: fiscalQuarter, filter: scopeFilter(store: store, region: region))
        try emit(report, format: format.rawValue, to: output)
    }
}

/// The engine with the configured calendar.
struct ReportContext {
    let engine: KPIEngine

    init(global: GlobalOptions) throws {
        let configuration = try global.configuration()
        let calendar = FiscalCalendar(
            weekStart: configuration.feedOptions.weekStart, fiscalYearStartMonth: configuration.fiscalYearStartMonth)
        engine = KPIEngine(warehouse: try global.openWarehouse(configuration), calendar: calendar)
    }
}

func scopeFilter(store: [String], region: String?) -> ScopeFilter {
    if !store.isEmpty { return .stores(store) }
    if let region { return .region(region) }
    return .all
}

/// A workbook or a PDF is written to a file, never to standard output.
func validateOutput(format: String, output: String?) throws {
    if DocumentFormat(rawValue: format) != nil && output == nil {
        throw ValidationError("--format \(format) writes a file: give --output FILE")
    }
}

/// Writes a report: a document to its file; text with colour only on a terminal, and never with `NO_COLOR` set.
private func emit(_ report: KPIReport, format name: String, to path: String?) throws {
    if let document = DocumentFormat(rawValue: name), let path {
        try ReportRenderer().write(report, as: document, to: path)
        return
    }
    let format = ReportFormat(rawValue: name) ?? .text
    try ReportOutput.write(to: path) { colour in ReportRenderer(colour: colour).render(report, as: format) }
}

/// Writes a ranked report (`employees`, `merch`): a document to its file, else its text.
func emitRanking(format name: String, to path: String?, document: () -> RankingDocument, text: (TableFormat, _ colour: Bool) -> String) throws {
    if let format = DocumentFormat(rawValue: name), let path {
        try ReportRenderer.write(document(), as: format, to: path)
        return
    }
    let format = TableFormat(rawValue: name) ?? .table
    try ReportOutput.write(to: path) { colour in text(format, colour) }
}

/// Where report text goes: a file, or standard output (in colour only on a terminal, and never
/// with `NO_COLOR` set).
enum ReportOutput {
    /// Renders with `render(colour)` and writes the text to `path`, or to standard output.
    static func write(to path: String?, _ render: (_ colour: Bool) -> String) throws {
        let toTerminal = path == nil && isatty(1) == 1
        let colour = toTerminal && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
        let output = try path.map { try TextOutput(path: $0) } ?? TextOutput()
        output.write(render(colour))
        output.flush()
    }
}
