import Foundation
import KPI
import OutputText
import Reports

#if canImport(Glibc)
    import Glibc
#endif

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

extension OutputOptions {
    /// Writes a `KPIReport` (`kpi`, `review`) as `--format` says.
    func emit(_ report: KPIReport, options: DocumentOptions) throws {
        try emit(
            document: { try ReportRenderer(options: options).write(report, as: $0, to: $1) },
            text: { format, colour in ReportRenderer(colour: colour, options: options).render(report, as: format) })
    }

    /// Writes a ranked report (`employees`, `merch`): `document()` as a document, else `text(format, colour)`.
    func emitRanking(
        document: () -> RankingDocument, options: DocumentOptions, text: (ReportFormat.Text, _ colour: Bool) -> String
    ) throws {
        try emit(document: { try ReportRenderer.write(document(), as: $0, to: $1, options: options) }, text: text)
    }

    /// Writes a report in `--format`: a document to `--output`; text (`text(format, colour)`) to
    /// `--output` or standard output.
    private func emit(
        document: (ReportFormat.Document, _ path: String) throws -> Void,
        text: (ReportFormat.Text, _ colour: Bool) -> String
    ) throws {
        switch format.value.kind {
        case .document(let format): try document(format, try documentOutput())
        case .text(let format): try ReportOutput.write(to: output) { colour in text(format, colour) }
        }
    }
}
