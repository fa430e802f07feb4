import ArgumentParser
import Reports

/// The `--format` values of a family of commands: some of `ReportFormat`'s, in the order their
/// help lists them; the first is the default.
protocol FormatChoices {
    static var formats: [ReportFormat] { get }
}

/// A `--format` value: one of `Choices.formats`, so that each command refuses the formats it
/// does not write (`kpi --format text`, `runs --format csv`) as argument-parser refuses any bad
/// value.
struct FormatOption<Choices: FormatChoices>: ExpressibleByArgument, Equatable, Sendable {
    /// The format asked for.
    let value: ReportFormat

    /// The format when `--format` is not given: the first of the choices.
    static var standard: Self { Self(value: Choices.formats.first ?? .table) }

    private init(value: ReportFormat) { self.value = value }

    init?(argument: String) {
        guard let value = ReportFormat(rawValue: argument), Choices.formats.contains(value) else { return nil }
        self.value = value
    }

    var defaultValueDescription: String { value.rawValue }

    static var allValueStrings: [String] { Choices.formats.map(\.rawValue) }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// `table` or `json`: the listings (`runs`, `runs show`, `access list`, `outbox list`) and the
/// verdicts (`status`, `check`).
enum TableOrJSON: FormatChoices {
    static let formats: [ReportFormat] = [.table, .json]
}

/// `text` or `json`: `explain` and `alerts`.
enum TextOrJSON: FormatChoices {
    static let formats: [ReportFormat] = [.text, .json]
}

/// `stores list`: what `StoreListRenderer` writes.
enum StoreListing: FormatChoices {
    static let formats = StoreListRenderer.formats
}

/// `kpi`, `employees` and `merch`: their tables, or a document.
enum TableReport: FormatChoices {
    static let formats: [ReportFormat] = [.table, .csv, .json, .xlsx, .html, .pdf]
}

/// `review`: `text` where the others say `table`.
enum ReviewReport: FormatChoices {
    static let formats: [ReportFormat] = [.text, .csv, .json, .xlsx, .html, .pdf]
}
