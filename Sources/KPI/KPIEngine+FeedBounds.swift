import CivilCalendar
import Feeds

extension KPIEngine {
    /// The scopes of the periods `periods(asOf)` lists, each metric bounded by its feed's last
    /// data day as of `asOf` (SPEC section 7): a period that starts after the last day it can be
    /// credited with (`feedAttributedLastDays`) has no data for the feed's metrics, and one it
    /// ends inside counts them up to it, as if cut there (`dataThrough`). `nil` when no period
    /// has data for any metric. Only the metrics of enabled feeds are kept.
    func boundedScopes(
        asOf: CivilDate, filter: ScopeFilter, periods: (CivilDate) -> [ReportPeriod]
    ) throws -> [ScopeValues]? {
        let feeds = Set(metrics.map(\.feed))
        let allLastDays = try warehouse.feedLastDays(notAfter: asOf)
        let lastDays = allLastDays.filter { feeds.contains($0.key) }
        let creditedDays = try warehouse.feedAttributedLastDays(notAfter: asOf, lastDays: allLastDays)
        let reported = periods(asOf)
        let hasData = { (period: ReportPeriod, feed: FeedID) in
            creditedDays[feed].map { $0 >= period.range.start } ?? false
        }
        guard reported.contains(where: { period in feeds.contains { hasData(period, $0) } }) else { return nil }

        var scopes = try compute(reported, filter: filter)
        let cuts = Set(lastDays.values).filter { day in
            reported.contains { $0.range.start <= day && day < $0.range.end }
        }
        for day in cuts.sorted() {
            let cutScopes = try compute(periods(day), filter: filter)
            for (scopeIndex, cutScope) in zip(scopes.indices, cutScopes) {
                for (periodIndex, period) in scopes[scopeIndex].periods.enumerated()
                where period.range.start <= day && day < period.range.end {
                    guard let cut = cutScope.periods.first(where: { $0.label == period.label }) else { continue }
                    for (metricIndex, metric) in MetricDefinition.all.enumerated() where lastDays[metric.feed] == day {
                        var value = cut.metrics[metricIndex]
                        value.dataThrough = day
                        scopes[scopeIndex].periods[periodIndex].metrics[metricIndex] = value
                    }
                }
            }
        }
        for scopeIndex in scopes.indices {
            for (periodIndex, period) in zip(scopes[scopeIndex].periods.indices, reported) {
                for (metricIndex, metric) in MetricDefinition.all.enumerated() where !hasData(period, metric.feed) {
                    scopes[scopeIndex].periods[periodIndex].metrics[metricIndex].markNoData()
                }
            }
        }
        let kept = MetricDefinition.all.map { enabledFeeds.contains($0.feed) }
        guard kept.contains(false) else { return scopes }
        for scopeIndex in scopes.indices {
            for periodIndex in scopes[scopeIndex].periods.indices {
                let values = scopes[scopeIndex].periods[periodIndex].metrics
                scopes[scopeIndex].periods[periodIndex].metrics = zip(values, kept).filter(\.1).map(\.0)
            }
        }
        return scopes
    }
}
