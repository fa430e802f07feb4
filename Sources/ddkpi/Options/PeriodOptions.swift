import ArgumentParser
import CivilCalendar
import KPI

/// `--as-of YYYY-MM-DD`: the last day a to-date report includes (`employees`).
struct AsOfOptions: ParsableArguments {
    @Option(help: "The last day included (YYYY-MM-DD).")
    var asOf: String

    func validate() throws { _ = try Self.day(asOf) }

    /// The day `--as-of` names.
    func day() throws -> CivilDate { try Self.day(asOf) }

    /// The day `text` names, or a validation error that quotes it.
    static func day(_ text: String) throws -> CivilDate {
        guard let day = CivilDate(iso8601: text) else {
            throw ValidationError("--as-of \(text): expected a date as YYYY-MM-DD")
        }
        return day
    }
}

/// `--quarter YYYYQn`: the fiscal quarter of the review.
struct QuarterOptions: ParsableArguments {
    @Option(help: "The fiscal quarter, such as 2025Q2.")
    var quarter: String

    func validate() throws { _ = try Self.quarter(quarter, in: FiscalCalendar()) }

    /// The quarter `--quarter` names in `calendar` (the configured fiscal year).
    func fiscalQuarter(in calendar: FiscalCalendar) throws -> FiscalQuarter { try Self.quarter(quarter, in: calendar) }

    /// The quarter `name` names in `calendar`, or a validation error that quotes it.
    static func quarter(_ name: String, in calendar: FiscalCalendar) throws -> FiscalQuarter {
        guard let quarter = calendar.quarter(named: name) else {
            throw ValidationError("--quarter \(name): expected a quarter such as 2025Q2 (Q1 to Q4)")
        }
        return quarter
    }
}
