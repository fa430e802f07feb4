import ArgumentParser
import Reports

/// `--format` and `--output` of the reports (`kpi`, `review`, `employees`, `merch`).
struct OutputOptions<Choices: FormatChoices>: ParsableArguments {
    @Option(help: ArgumentHelp(OutputOptions.formatHelp))
    var format = FormatOption<Choices>.standard

    @Option(help: "Write the report to this file instead of standard output.")
    var output: String?

    /// `Output format: table, csv, json, xlsx, html or pdf (xlsx and pdf need --output).`
    private static var formatHelp: String {
        let documents = Choices.formats.filter(\.isDocument).map(\.rawValue)
        return
            "Output format: \(listed(Choices.formats.map(\.rawValue), "or")) (\(listed(documents, "and")) need --output)."
    }

    /// `a, b or c`.
    private static func listed(_ names: [String], _ conjunction: String) -> String {
        names.count < 2
            ? names.joined() : names.dropLast().joined(separator: ", ") + " \(conjunction) " + (names.last ?? "")
    }

    /// A workbook or a PDF is written to a file, never to standard output.
    func validate() throws {
        if format.value.isDocument { _ = try documentOutput() }
    }

    /// Whether the report becomes a document (XLSX, PDF or an HTML page) rather than text.
    var writesDocument: Bool { format.value.isDocument || format.value == .html }

    /// `--output`, which a document format requires.
    func documentOutput() throws -> String {
        guard let output else {
            throw ValidationError("--format \(format.value.rawValue) writes a file: give --output FILE")
        }
        return output
    }
}
