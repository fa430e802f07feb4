import ArgumentParser
import Checks
import CivilCalendar
import KPI
import Logging
import Reports
import Warehouse

/// `ddkpi status`: each feed's last date against its cadence, for cron alerting (exit 4 when
/// any feed is late or missing).
struct StatusCommand: ParsableCommand, ReportPeriodCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract:
            "Feed freshness: each feed's last date, days since, and ok/late/missing, and the alarms of the last 7 days; exit 4 when a feed is late or missing."
    )

    static let periodShape = ReportPeriodShape(
        form: .day, asOf: "The day to judge from (YYYY-MM-DD; default: today, local time).")

    @OptionGroup var global: GlobalOptions

    @OptionGroup var period: ReportPeriodOptions<StatusCommand>

    @Option(help: "Output format: table or json.")
    var format = FormatOption<TableOrJSON>.standard

    @Option(help: "Log lines on standard error: text or json (one JSON object per line).")
    var logFormat: LogFormat = .text

    func run() throws {
        let log = EventLog(format: logFormat)
        let configuration = try global.configuration()
        let warehouse = try global.openWarehouse(configuration)
        let day = period.day ?? CivilDate.today()
        let report = FreshnessReport(
            asOf: day, stores: try warehouse.stores(),
            lastDates: try warehouse.lastDates(notAfter: day, chainWide: FreshnessPolicy.eventFeeds),
            policy: configuration.freshness)
        let alarms = try recentAlarms(warehouse, asOf: day, settings: try configuration.checks(against: warehouse))
        for row in report.rows where row.verdict != .ok {
            log.warning(
                "status.\(row.verdict.rawValue)",
                fields: [
                    "feed": .string(row.feed.rawValue), "scope": .string(row.scope),
                    "daysSince": row.daysSince.map { Logger.MetadataValue.int($0) } ?? .null,
                ])
        }
        log.info(
            "status.done",
            fields: [
                "rows": .int(report.rows.count), "attention": .int(report.rows.filter { $0.verdict != .ok }.count),
                "alarms": .int(alarms),
            ])
        try ReportOutput.write(to: nil) { _ in
            FreshnessRenderer().render(report, alarms: alarms, json: format.value == .json)
        }
        if report.needsAttention { throw ExitCode(ExitStatus.feedsLate) }
    }

    /// How many alarms `check` finds over the 7 days to `asOf` (or to the latest sales-audit
    /// date, when that is earlier).
    private func recentAlarms(_ warehouse: Warehouse, asOf: CivilDate, settings: CheckSettings) throws -> Int {
        guard let latest = try warehouse.latestSalesDate() else { return 0 }
        let end = min(asOf, latest)
        return try warehouse.alarms(from: end.adding(days: -6), through: end, settings: settings).count
    }
}
