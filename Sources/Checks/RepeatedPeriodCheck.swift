import CivilCalendar
import Feeds

/// `repeated-period` (SPEC section 18): at least 7 consecutive store-days whose every measure
/// equals the days a week, a month (same weekday: 28 or 35 days) or a year (364 days) earlier —
/// a copied export. Days without sales are left to `zero-day`: a closed store repeats its zeros.
enum RepeatedPeriodCheck {
    /// The distances checked, nearest first: a span matching several is named by the nearest.
    static let lags = [7, 28, 35, 364]
    static let minimumDays = 7

    /// A maximal run of days (days since the epoch) equal to the days `lag` earlier, with the
    /// sales it sums and the run of its last day.
    struct Span {
        let lag: Int
        let days: ClosedRange<Int>
        let cents: Int64
        let run: Int64
    }

    /// One distance's run of equal days while the days are walked in order.
    struct Tracker {
        let lag: Int
        private var start: Int?
        private var cents: Int64 = 0
        private var run: Int64 = 0

        init(lag: Int) { self.lag = lag }

        /// Whether a run of equal days goes on.
        var isRunning: Bool { start != nil }

        /// Takes day `day`, which `repeats` the day `lag` days earlier or not, with its row's
        /// cents and run; returns the span that ended the day before, when it is long enough.
        mutating func step(day: Int, repeats: Bool, cents rowCents: Int64, run rowRun: Int64) -> Span? {
            guard repeats else { return start == nil ? nil : end(before: day) }
            start = start ?? day
            cents += rowCents
            run = rowRun
            return nil
        }

        /// Ends the run before `day` (the day after the last one walked); returns its span when
        /// it is long enough.
        mutating func end(before day: Int) -> Span? {
            defer {
                start = nil
                cents = 0
            }
            guard let start, day - start >= RepeatedPeriodCheck.minimumDays else { return nil }
            return Span(lag: lag, days: start...(day - 1), cents: cents, run: run)
        }
    }

    /// Whether `row` repeats `earlier`: a row with sales whose every figure equals it.
    static func repeats(_ row: SalesDay?, _ earlier: SalesDay?) -> Bool {
        guard let row, row.cents > 0, let earlier else { return false }
        return row.hasSameFigures(as: earlier)
    }

    static func alarms(_ series: StoreSeries) -> [Alarm] {
        var spans: [Span] = []
        for lag in lags {
            var tracker = Tracker(lag: lag)
            for index in series.sales.indices {
                let row = series.sales[index]
                let repeated = repeats(row, index >= lag ? series.sales[index - lag] : nil)
                if let span = tracker.step(
                    day: series.first + index, repeats: repeated, cents: row?.cents ?? 0, run: row?.run ?? 0)
                {
                    spans.append(span)
                }
            }
            if let span = tracker.end(before: series.first + series.sales.count) { spans.append(span) }
        }
        return alarms(spans, store: series.store) {
            series.isJudged(($0.lowerBound - series.first)...($0.upperBound - series.first))
        }
    }

    /// The alarms of a store's `spans` (by distance, nearest first, then by day): a span that
    /// overlaps one already taken is not named again; a taken one alarms when `isJudged` says
    /// an alarm may name its days.
    static func alarms(_ spans: [Span], store: String, isJudged: (ClosedRange<Int>) -> Bool) -> [Alarm] {
        var taken: [ClosedRange<Int>] = []
        var alarms: [Alarm] = []
        for span in spans where !taken.contains(where: { $0.overlaps(span.days) }) {
            taken.append(span.days)
            guard isJudged(span.days) else { continue }
            alarms.append(
                Alarm(
                    kind: .repeatedPeriod, feed: .salesAudit, store: store,
                    days: DateRange(
                        start: CivilDate(daysSinceEpoch: span.days.lowerBound),
                        end: CivilDate(daysSinceEpoch: span.days.upperBound)),
                    metric: "totalSales", value: Double(span.cents) / 100, expected: nil,
                    score: Double(span.days.count), run: span.run,
                    note: "\(span.days.count) days with every figure equal to \(span.lag) days earlier"))
        }
        return alarms
    }
}
