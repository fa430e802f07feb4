import ArgumentParser
import Reports

/// What a `--format` asks for: a text form (for standard output or `--output`), or a document
/// only a file can hold (SPEC section 12).
enum Rendering<Text> {
    case text(Text)
    case document(DocumentFormat)

    /// The same rendering with its text form changed by `transform`.
    func map<Other>(_ transform: (Text) -> Other) -> Rendering<Other> {
        switch self {
        case .text(let format): return .text(transform(format))
        case .document(let format): return .document(format)
        }
    }
}

/// A `--format` value of one family of reports.
protocol OutputFormat: ExpressibleByArgument, CaseIterable, RawRepresentable where RawValue == String {
    /// The format when `--format` is not given.
    static var standard: Self { get }
    /// How a `KPIReport` (`kpi`, `review`) comes out in this format.
    var report: Rendering<ReportFormat> { get }
}

extension OutputFormat {
    /// The document this format writes, or `nil` for text.
    var document: DocumentFormat? {
        if case .document(let format) = report { return format }
        return nil
    }
}

/// `--format` and `--output` of the reports (`kpi`, `review`, `employees`, `merch`).
struct OutputOptions<Format: OutputFormat>: ParsableArguments {
    @Option(help: ArgumentHelp(OutputOptions.formatHelp))
    var format: Format = .standard

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    /// `Output format: table, csv, json, xlsx, html or pdf (xlsx and pdf need --output).`
    private static var formatHelp: String {
        let documents = Format.allCases.filter { $0.document != nil }.map(\.rawValue)
        return
            "Output format: \(listed(Format.allCases.map(\.rawValue), "or")) (\(listed(documents, "and")) need --output)."
    }

    /// `a, b or c`.
    private static func listed(_ names: [String], _ conjunction: String) -> String {
        names.count < 2
            ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + (names.last ?? "")
    }

    /// A workbook or a PDF is written to a file, never to standard output.
    func validate() throws {
        if format.document != nil { _ = try documentOutput() }
    }

    /// Whether the report becomes a document (XLSX, PDF or an HTML page) rather than text.
    var writesDocument: Bool { format.document != nil || format.rawValue == "html" }

    /// `--output`, which a document format requires.
    func documentOutput() throws -> String {
        guard let output else { throw ValidationError("--format \(format.rawValue) writes a file: give --output FILE") }
        return output
    }
}

/// `--format` of `kpi`, `employees` and `merch`: their tables, or a document.
enum TableOutputFormat: String, OutputFormat {
    case table, csv, json, xlsx, html, pdf

    static let standard = TableOutputFormat.table

    var report: Rendering<ReportFormat> { ranking.map(ReportFormat.init) }

    /// How a ranked report (`employees`, `merch`) comes out in this format.
    var ranking: Rendering<TableFormat> {
        switch self {
        case .table: return .text(.table)
        case .csv: return .text(.csv)
        case .json: return .text(.json)
        case .html: return .text(.html)
        case .xlsx: return .document(.xlsx)
        case .pdf: return .document(.pdf)
        }
    }
}

extension ReportFormat {
    /// The same text form of a `KPIReport` as of a ranked report.
    init(_ format: TableFormat) {
        switch format {
        case .table: self = .table
        case .csv: self = .csv
        case .json: self = .json
        case .html: self = .html
        }
    }
}

/// `--format` of `review`: `text` where the others say `table`.
enum ReviewOutputFormat: String, OutputFormat {
    case text, csv, json, xlsx, html, pdf

    static let standard = ReviewOutputFormat.text

    var report: Rendering<ReportFormat> {
        switch self {
        case .text: return .text(.text)
        case .csv: return .text(.csv)
        case .json: return .text(.json)
        case .html: return .text(.html)
        case .xlsx: return .document(.xlsx)
        case .pdf: return .document(.pdf)
        }
    }
}
