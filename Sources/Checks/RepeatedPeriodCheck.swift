import CivilCalendar
import Feeds

/// `repeated-period` (SPEC section 18): at least 7 consecutive store-days whose every measure
/// equals the days a week, a month (same weekday: 28 or 35 days) or a year (364 days) earlier —
/// a copied export. Days without sales are left to `zero-day`: a closed store repeats its zeros.
enum RepeatedPeriodCheck {
    /// The distances checked, nearest first: a span matching several is named by the nearest.
    static let lags = [7, 28, 35, 364]
    static let minimumDays = 7

    static func alarms(_ series: StoreSeries) -> [Alarm] {
        var taken: [ClosedRange<Int>] = []
        var alarms: [Alarm] = []
        for lag in lags {
            for span in equalSpans(series, lag: lag) where !taken.contains(where: { $0.overlaps(span) }) {
                taken.append(span)
                guard series.isJudged(span) else { continue }
                let cents = span.reduce(Int64(0)) { $0 + (series.sales[$1]?.cents ?? 0) }
                alarms.append(
                    Alarm(
                        kind: .repeatedPeriod, feed: .salesAudit, store: series.store,
                        days: DateRange(start: series.date(span.lowerBound), end: series.date(span.upperBound)),
                        metric: "totalSales", value: Double(cents) / 100, expected: nil, score: Double(span.count),
                        run: series.sales[span.upperBound]?.run,
                        note: "\(span.count) days with every figure equal to \(lag) days earlier"))
            }
        }
        return alarms
    }

    /// Maximal runs of at least `minimumDays` positions whose sales row equals the one `lag` days before.
    private static func equalSpans(_ series: StoreSeries, lag: Int) -> [ClosedRange<Int>] {
        var spans: [ClosedRange<Int>] = []
        var runStart: Int?
        for index in 0...series.sales.count {
            var equal = false
            if index < series.sales.count, index >= lag, let day = series.sales[index], day.cents > 0,
                let earlier = series.sales[index - lag]
            {
                equal = day.hasSameFigures(as: earlier)
            }
            if equal {
                runStart = runStart ?? index
            } else if let start = runStart {
                if index - start >= minimumDays { spans.append(start...(index - 1)) }
                runStart = nil
            }
        }
        return spans
    }
}
