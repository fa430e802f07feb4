import ArgumentParser
import CivilCalendar
import KPI

/// `--quarter`, `--as-of`, `--period` and `--month`: the period a report covers, for every
/// command that takes one. `Command` says which of them it takes and in which combinations
/// (`ReportPeriodShape`), and words their help; an option it does not take is hidden and
/// refused as unknown.
struct ReportPeriodOptions<Command: ReportPeriodCommand>: ParsableArguments {
    @Option(help: ReportPeriodOptions.help(\.quarter))
    var quarter: String?

    @Option(help: ReportPeriodOptions.help(\.asOf))
    var asOf: String?

    @Option(help: ReportPeriodOptions.help(\.period))
    var period = ToDatePeriod<Command>(label: nil)

    @Option(help: ReportPeriodOptions.help(\.month))
    var month: String?

    /// The option's help from `Command`, or a hidden option when it does not take it.
    private static func help(_ text: KeyPath<ReportPeriodShape, String?>) -> ArgumentHelp {
        guard let text = Command.periodShape[keyPath: text] else { return ArgumentHelp(visibility: .private) }
        return ArgumentHelp(text)
    }

    /// `--as-of`'s day, for the commands that take a day alone (`validate()` checked it).
    var day: CivilDate? { asOf.flatMap(CivilDate.init(iso8601:)) }

    /// The one validation of the period options, in the default fiscal calendar (the months of
    /// a quarter wait for the configured one: `resolve(in:)`).
    func validate() throws { _ = try resolve(in: FiscalCalendar(), checkingMonth: false) }

    /// The period the options name in `calendar` (the configured fiscal year).
    func resolve(in calendar: FiscalCalendar) throws -> ReportPeriod {
        try resolve(in: calendar, checkingMonth: true)
    }

    private func resolve(in calendar: FiscalCalendar, checkingMonth: Bool) throws -> ReportPeriod {
        let shape = Command.periodShape
        let given = [
            ("--quarter", quarter != nil), ("--as-of", asOf != nil), ("--period", period.label != nil),
            ("--month", month != nil),
        ]
        for (name, isGiven) in given where isGiven && !shape.takes(name) {
            throw ValidationError("Unknown option '\(name)'")
        }
        switch (shape.form, quarter, asOf) {
        case (.day, _, let day):
            return try day.map { .day(try Self.day($0)) } ?? .latest
        case (.quarter, nil, _):
            throw ValidationError("Missing expected argument '--quarter <quarter>'")
        case (.toDate, _, nil):
            throw ValidationError("Missing expected argument '--as-of <as-of>'")
        case (.toDate, _, let day?):
            return .toDate(try Self.day(day), period: period.label ?? ReportPeriod.standardToDate)
        case (.quarterOrToDate, nil, nil), (.quarterOrDay, nil, nil), (.quarterOrDay, .some, .some):
            throw ValidationError("give --quarter YYYYQn or --as-of YYYY-MM-DD")
        case (.quarter, let name?, let day), (.quarterOrToDate, let name?, let day):
            let fiscal = try Self.quarter(name, in: calendar)
            if period.label != nil { throw ValidationError("--period goes with --as-of alone, not --quarter") }
            return .quarter(fiscal, asOf: try day.map(Self.day), month: nil)
        case (.quarterOrToDate, nil, let day?):
            return .toDate(try Self.day(day), period: period.label ?? ReportPeriod.standardToDate)
        case (.quarterOrDay, let name?, nil):
            return .quarter(try Self.quarter(name, in: calendar), asOf: nil, month: nil)
        case (.quarterOrDay, nil, let day?):
            return .day(try Self.day(day))
        case (.quarterOrPeriod, nil, let day?) where period.label != nil:
            let label = period.label ?? ""
            let parsed = try Self.day(day)
            guard ReportPeriod.toDateLabels.contains(label) else {
                throw ValidationError("--period \(label): expected WTD, MTD, QTD or YTD")
            }
            guard month == nil else { throw ValidationError("--month goes with --quarter") }
            return .toDate(parsed, period: label)
        case (.quarterOrPeriod, let name?, nil) where period.label == nil:
            let fiscal = try Self.quarter(name, in: calendar)
            if let month, checkingMonth, !fiscal.months.contains(where: { $0.label == month }) {
                throw ValidationError(
                    "--month \(month): expected a month of \(fiscal.label) (\(fiscal.months.map(\.label).joined(separator: ", ")))"
                )
            }
            return .quarter(fiscal, asOf: nil, month: month)
        case (.quarterOrPeriod, _, _):
            throw ValidationError("give --as-of D with --period P, or --quarter Q (with --month YYYY-MM at most)")
        }
    }

    /// The day `text` names, or a validation error that quotes it.
    static func day(_ text: String) throws -> CivilDate {
        guard let day = CivilDate(iso8601: text) else {
            throw ValidationError("--as-of \(text): expected a date as YYYY-MM-DD")
        }
        return day
    }

    /// The quarter `name` names in `calendar`, or a validation error that quotes it.
    static func quarter(_ name: String, in calendar: FiscalCalendar) throws -> FiscalQuarter {
        guard let quarter = calendar.quarter(named: name) else {
            throw ValidationError("--quarter \(name): expected a quarter such as 2025Q2 (Q1 to Q4)")
        }
        return quarter
    }
}

/// A command that takes a period: which options, in which combinations, with what help.
protocol ReportPeriodCommand {
    static var periodShape: ReportPeriodShape { get }
}

/// The period options one command takes (`nil` help: it does not take the option) and how
/// they combine.
struct ReportPeriodShape: Sendable {
    /// The combinations of the options a command takes.
    enum Form: Sendable {
        /// `[--as-of D]`: `kpi`, `alerts`, `check`, `status`.
        case day
        /// `--quarter Q [--as-of D]`: `review`.
        case quarter
        /// `--as-of D [--period P]`: `employees`.
        case toDate
        /// `--quarter Q [--as-of D]`, or `--as-of D [--period P]`: `merch`.
        case quarterOrToDate
        /// `--as-of D --period P`, or `--quarter Q [--month M]`: `explain`.
        case quarterOrPeriod
        /// `--quarter Q` or `--as-of D`: `publish`.
        case quarterOrDay
    }

    var form: Form
    var quarter: String? = nil
    var asOf: String? = nil
    var period: String? = nil
    var month: String? = nil
    /// The `--period` values, listed in the help and checked as parsed (empty: any text, which
    /// validation checks: `explain`).
    var periods: [String] = []
    /// Whether the help shows the `--period` taken when it is not given (`MTD`).
    var listsStandardPeriod = false

    /// Whether the command takes the option `name` (`--as-of`).
    func takes(_ name: String) -> Bool {
        switch name {
        case "--quarter": return quarter != nil
        case "--as-of": return asOf != nil
        case "--period": return period != nil
        case "--month": return month != nil
        default: return false
        }
    }
}

/// A `--period` value: one of the command's to-date periods (`WTD`, `MTD`, `QTD`, `YTD`).
struct ToDatePeriod<Command: ReportPeriodCommand>: ExpressibleByArgument, Sendable {
    /// The period given, or `nil` when `--period` was not.
    let label: String?

    init(label: String?) { self.label = label }

    init?(argument: String) {
        let periods = Command.periodShape.periods
        guard periods.isEmpty || periods.contains(argument) else { return nil }
        label = argument
    }

    /// The period given, else the default when the command's help shows it (empty: none shown).
    var defaultValueDescription: String {
        label ?? (Command.periodShape.listsStandardPeriod ? ReportPeriod.standardToDate : "")
    }

    static var allValueStrings: [String] { Command.periodShape.periods }

    static var defaultCompletionKind: CompletionKind { allValueStrings.isEmpty ? .default : .list(allValueStrings) }
}

/// The period a report covers, as the period options name it.
enum ReportPeriod {
    /// No period option given: the report's default (its latest data; `status`: today).
    case latest
    /// `--as-of D` alone.
    case day(CivilDate)
    /// `--as-of D [--period P]`: the to-date period `P` ending on `D`.
    case toDate(CivilDate, period: String)
    /// `--quarter Q`, up to `--as-of D` at most, or one `--month` of it.
    case quarter(FiscalQuarter, asOf: CivilDate?, month: String?)

    /// The to-date periods.
    static let toDateLabels = ["WTD", "MTD", "QTD", "YTD"]
    /// The to-date period when `--period` is not given.
    static let standardToDate = "MTD"

    /// The last day the period includes when the options name one (`--as-of`).
    var asOf: CivilDate? {
        switch self {
        case .latest: return nil
        case .day(let day), .toDate(let day, _): return day
        case .quarter(_, let asOf, _): return asOf
        }
    }
}
