import ArgumentParser
import Checks
import CivilCalendar
import Reports
import Warehouse

/// `ddkpi check`: wrong-data alarms over recent store-days, or over the store-days one run
/// wrote (SPEC section 18). Read-only; exit 4 when there is any alarm.
struct CheckCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract:
            "Wrong-data checks: outliers, zero days, repeated periods, date shifts, reconcile and implausible values; exit 4 when any alarm."
    )

    /// Days before `--as-of` that the default range starts (35 days in all).
    static let defaultDays = 34

    static let periodShape = ReportPeriodShape(
        form: .day, asOf: "The last day checked (YYYY-MM-DD; default: the latest sales-audit date).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var period: ReportPeriodOptions<CheckCommand>

    @Option(help: "The first day checked (YYYY-MM-DD; default: --as-of minus 34 days).")
    var since: String?

    @Option(
        name: .customLong("run"),
        help: "Check the store-days this run wrote (see `ddkpi runs`) instead of a range of days.")
    var runID: Int64?

    @Option(help: "Output format: table or json.")
    var format = FormatOption<TableOrJSON>.standard

    func validate() throws {
        if let since, CivilDate(iso8601: since) == nil {
            throw ValidationError("--since \(since): expected a date as YYYY-MM-DD")
        }
        if since != nil, runID != nil { throw ValidationError("give --since or --run, not both") }
    }

    func run() throws {
        let configuration = try global.configuration()
        let warehouse = try global.openWarehouse(configuration)
        let checks = try configuration.checks(against: warehouse)
        let latest = try warehouse.latestSalesDate()
        let asOfDay = period.day ?? latest
        let alarms: [Alarm]
        let scope: String
        if let run = runID {
            guard let found = try warehouse.alarms(run: run, settings: checks) else {
                throw ValidationError("--run \(run): no such run (see `ddkpi runs`)")
            }
            alarms = found
            scope = "the store-days run \(run) wrote"
        } else if let asOfDay {
            let start = since.flatMap(CivilDate.init(iso8601:)) ?? asOfDay.adding(days: -Self.defaultDays)
            guard start <= asOfDay else {
                throw ValidationError("--since \(start.iso8601) is after --as-of \(asOfDay.iso8601)")
            }
            alarms = try warehouse.alarms(from: start, through: asOfDay, settings: checks)
            scope = "store-days \(start.iso8601) to \(asOfDay.iso8601)"
        } else {
            alarms = []
            scope = "no sales-audit rows yet"
        }
        try ReportOutput.write(to: nil) { _ in
            AlarmRenderer().render(
                alarms, asOf: asOfDay?.iso8601 ?? "", scope: scope, json: format.value == .json)
        }
        if !alarms.isEmpty { throw ExitCode(ExitStatus.alarms) }
    }
}
