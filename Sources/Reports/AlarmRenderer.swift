import Checks
import Feeds
import OutputText

/// Renders `ddkpi check` (SPEC section 18) as a text table or JSON.
public struct AlarmRenderer {
    public init() {}

    /// The alarms found over `days` (for the heading) as of `asOf`.
    public func render(_ alarms: [Alarm], asOf: String, scope: String, json: Bool) -> String {
        json ? AlarmJSON.document(asOf: asOf, alarms: alarms) : table(alarms, scope: scope)
    }

    private func table(_ alarms: [Alarm], scope: String) -> String {
        let heading = "Wrong-data checks, \(scope): "
        guard !alarms.isEmpty else { return heading + "no alarms\n" }
        // Names to the left, numbers to the right, the sentence last.
        var table = TextTable(
            alignments: [.left, .left, .left, .left, .left, .right, .right, .right, .right, .left, .left],
            separator: "  ")
        table.add(["Store", "Date", "Kind", "Feed", "Metric", "Value", "Expected", "Score", "Run", "File", "What"])
        for alarm in alarms {
            let days =
                alarm.kind.isSpan
                ? "\(alarm.days.start.iso8601)…\(alarm.days.end.iso8601)" : alarm.days.start.iso8601
            table.add([
                alarm.store, days, alarm.kind.rawValue, alarm.feed.rawValue, alarm.metric,
                Self.shown(alarm.value, metric: alarm.metric), Self.shown(alarm.expected, metric: alarm.metric),
                String(format: "%.1f", alarm.score), alarm.run.map(String.init) ?? "—",
                alarm.file.map(FeedFileReader.fileName) ?? "—", alarm.note,
            ])
        }
        return heading + "\(alarms.count) alarm\(alarms.count == 1 ? "" : "s")\n" + table.render()
    }

    /// Money as money, counts and percents as numbers; `—` for none.
    private static func shown(_ value: Double?, metric: String) -> String {
        guard let value else { return "—" }
        let first = metric.split(separator: ",").first.map(String.init) ?? metric
        if ["totalSales", "associateSales", "vendorSales", "categorySales", "avgAds"].contains(first) {
            return NumberText.formatted(value, .moneyWithCents)
        }
        return value.rounded() == value ? NumberText.formatted(value, .count) : NumberText.formatted(value, .decimal)
    }
}
