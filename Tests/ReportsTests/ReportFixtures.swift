import CivilCalendar

@testable import KPI

/// Hand-made reports for the document tests: a 2025Q2 review of the scopes given.
enum ReportFixtures {
    static let months = [("2025-04", 1, 30), ("2025-05", 1, 31), ("2025-06", 1, 30)]

    /// A scope whose every metric has `actual` (scaled per metric) and, unless `targets` is false,
    /// a target 5 % below in April, level in May and 10 % above in June and the quarter.
    static func scope(_ id: String, title: String, sales: Double, targets: Bool = true) -> ScopeValues {
        let factors = [0.95, 1.0, 1.1, 1.1]
        let labels = months.map(\.0) + ["2025Q2"]
        let periods = labels.enumerated().map { index, label -> PeriodValues in
            let month = index < 3 ? index + 4 : 4
            let range = DateRange(
                start: CivilDate(year: 2025, month: month, day: 1),
                end: index < 3
                    ? CivilDate(year: 2025, month: month, day: months[index].2)
                    : CivilDate(year: 2025, month: 6, day: 30))
            let lastYear = DateRange(
                start: CivilDate(year: 2024, month: range.start.month, day: 1),
                end: CivilDate(year: 2024, month: range.end.month, day: range.end.day))
            let periodSales = index < 3 ? sales : sales * 3
            return PeriodValues(
                label: label, range: range, lastYear: lastYear,
                metrics: MetricDefinition.all.map { metric in
                    let actual = metric.key == "totalSales" ? periodSales : (metric.key == "ccpPct" ? 0.42 : 10)
                    let target = targets ? actual * factors[index] : nil
                    return MetricValue(
                        key: metric.key, actual: actual, target: target, pctToTarget: target.map { actual / $0 - 1 },
                        ly: actual * 0.9, pctVsLY: actual / (actual * 0.9) - 1)
                })
        }
        return ScopeValues(scope: id, title: title, periods: periods)
    }

    static func review(_ scopes: [ScopeValues]) -> KPIReport {
        KPIReport(kind: .review(quarter: "2025Q2"), scopes: scopes)
    }
}
