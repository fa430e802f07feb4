import CivilCalendar
import Feeds
import Foundation

/// `outlier` (SPEC section 18): a store-day's sales, transactions, items, average sale or
/// associate sales whose robust z-score on logarithms exceeds `z`, against the same weekday in the previous 8
/// weeks (at least 5 of them with data), else the previous 28 days; and an event feed's
/// store-week, on ln(1 + count), against the previous 8 weeks when their median count is at
/// least 10. Values ≤ 0 are left to `zero-day` and `implausible`.
enum OutlierCheck {
    /// A daily measure the check tests: its name, feed, how a day reads it, and its unit.
    struct DailyMeasure {
        let metric: String
        let feed: FeedID
        /// Stored units per shown unit (100 for cents to dollars).
        let unit: Double
        /// The sales-audit figure the measure is (`nil` for associate sales).
        let sales: SalesFigure?
        /// A day's value in stored units and its run, `nil` when the day does not give one.
        let read: (StoreSeries, Int) -> (value: Double, run: Int64)?

        /// Whether the measure is worked out from others (the average sale) rather than read
        /// from a file's column: an alarm names a measure read from the file first.
        var isDerived: Bool { sales == .averageSale }

        /// A measure of the sales-audit rows; a day the export marks closed gives none.
        static func sales(_ metric: String, unit: Double, _ figure: SalesFigure) -> DailyMeasure {
            DailyMeasure(metric: metric, feed: .salesAudit, unit: unit, sales: figure) { series, index in
                series.sales[index].flatMap { day in day.closed ? nil : figure.value(of: day).map { ($0, day.run) } }
            }
        }
    }

    /// A figure of a sales-audit row that a measure reads.
    enum SalesFigure {
        case cents, transactions, items
        /// Sales over transactions, in cents: the average sale.
        case averageSale

        /// The figure of `day` in stored units; `nil` for an unknown count, or an average sale
        /// over unknown or no transactions, which is not judged.
        func value(of day: SalesDay) -> Double? {
            switch self {
            case .cents: return Double(day.cents)
            case .transactions: return day.transactions.map(Double.init)
            case .items: return day.items.map(Double.init)
            case .averageSale:
                guard let transactions = day.transactions, transactions > 0 else { return nil }
                return Double(day.cents) / Double(transactions)
            }
        }
    }

    static let dailyMeasures: [DailyMeasure] = [
        .sales("totalSales", unit: 100, .cents),
        .sales("totalTransactions", unit: 1, .transactions),
        .sales("totalItems", unit: 1, .items),
        .sales("avgAds", unit: 100, .averageSale),
        DailyMeasure(metric: "associateSales", feed: .employeePerformance, unit: 100, sales: nil) { series, index in
            series.associates[index].map { (Double($0.cents), $0.run) }
        },
    ]

    /// The measures of the sales-audit rows alone.
    static let salesMeasures = dailyMeasures.filter { $0.sales != nil }

    /// Weeks of history an event week is judged against, and the least median count worth judging.
    private static let eventHistoryWeeks = 8
    private static let eventMinimumMedian = 10.0

    /// A measure's score on one day: its value and what was expected in stored units.
    struct Trip {
        let measure: DailyMeasure
        let value: Double
        let expected: Double
        let score: Double
        let run: Int64

        /// Whether `other` leads an alarm before this trip: a measure read from the file before
        /// one derived from them, then the higher score.
        func isLed(by other: Trip) -> Bool {
            (other.measure.isDerived ? 0 : 1, other.score) > (measure.isDerived ? 0 : 1, score)
        }
    }

    /// The measures' logarithms on each day of `series` (NaN where there is no value above 0).
    static func logarithms(_ series: StoreSeries) -> [[Double]] {
        dailyMeasures.map { measure in
            (0..<series.sales.count).map { index -> Double in
                guard let value = measure.read(series, index)?.value, value > 0 else { return .nan }
                return log(value)
            }
        }
    }

    static func alarms(_ series: StoreSeries, logs: [[Double]], chain: ChainIndex, settings: CheckSettings) -> [Alarm] {
        dailyAlarms(series, logs: logs, chain: chain, settings: settings) + eventAlarms(series, settings: settings)
    }

    /// A day is scored on the store's values relative to the chain's that day (`ChainIndex`),
    /// which takes out what every store shares — the step into a December peak, a holiday, the
    /// lull after them — so neither a busy first Sunday of December alarms nor a shifted decimal
    /// in January hides behind a December history. Where the chain is no yardstick (fewer than
    /// 5 stores, or the whole chain unusual that day: a whole file's decimal shifted), the score
    /// is the SPEC's, against the store's own history.
    private static func dailyAlarms(_ series: StoreSeries, logs: [[Double]], chain: ChainIndex, settings: CheckSettings)
        -> [Alarm]
    {
        var reference = ReferenceDays()
        // Measure by measure over the days (each measure's arrays taken once), the days that
        // trip collected by day.
        var tripsByDay: [Int: [Trip]] = [:]
        for (position, measure) in dailyMeasures.enumerated() {
            let values = logs[position]
            let offsets = chain.offsets(measure: position, first: series.first, count: series.sales.count)
            let relative = zip(values, offsets).map { $0 - $1 }
            for index in 0..<series.sales.count where !values[index].isNaN && series.isJudged(index) {
                let found = unusual(
                    offset: offsets[index],
                    relative: { reference.judge(relative, at: index, threshold: settings.z) },
                    own: { reference.judge(values, at: index, threshold: settings.z) })
                guard let found, let reading = measure.read(series, index) else { continue }
                tripsByDay[index, default: []].append(
                    Trip(
                        measure: measure, value: reading.value, expected: found.expected, score: found.score,
                        run: reading.run))
            }
        }
        return tripsByDay.sorted(by: { $0.key < $1.key }).compactMap { index, trips in
            alarm(trips, store: series.store, date: series.date(index))
        }
    }

    /// A day's score and expected value when it is unusual: relative to the chain (`offset`,
    /// NaN where the chain is no yardstick) when its reference days allow, else against the
    /// store's own values.
    static func unusual(
        offset: Double, relative: () -> ReferenceDays.Judgement, own: () -> ReferenceDays.Judgement
    ) -> (score: Double, expected: Double)? {
        var judgement = ReferenceDays.Judgement.noBaseline
        if !offset.isNaN {
            judgement = relative()
            if case .unusual(let score, let median) = judgement { return (score, exp(median + offset)) }
        }
        if case .noBaseline = judgement, case .unusual(let score, let median) = own() { return (score, exp(median)) }
        return nil
    }

    /// The alarm of a store-day on which `trips` tripped (`nil` for none): the leading measure
    /// first (`Trip.isLed(by:)`), then the others.
    static func alarm(_ trips: [Trip], store: String, date: CivilDate) -> Alarm? {
        guard let top = trips.max(by: { $0.isLed(by: $1) }) else { return nil }
        return alarm(top, tripped: trips.map(\.measure), store: store, date: date)
    }

    /// The alarm of a store-day whose highest score is `top`'s, naming `top`'s measure and then
    /// the others of `tripped` (every measure that tripped, in the measures' order).
    static func alarm(_ top: Trip, tripped: [DailyMeasure], store: String, date: CivilDate) -> Alarm {
        alarm(
            top, metric: metrics(top, tripped: tripped), note: note(top.measure, ratio: ratio(top)), store: store,
            date: date)
    }

    /// The same alarm from its texts: `metrics(_:tripped:)`, and `note(_:ratio:)` of `ratio(top)`
    /// (an ingest's thousands of alarms repeat them).
    static func alarm(_ top: Trip, metric: String, note: String, store: String, date: CivilDate) -> Alarm {
        Alarm(
            kind: .outlier, feed: top.measure.feed, store: store, days: .init(start: date, end: date),
            metric: metric, value: top.value / top.measure.unit, expected: top.expected / top.measure.unit,
            score: top.score, run: top.run, note: note)
    }

    /// `top`'s measure, then the others of `tripped`, comma-separated.
    static func metrics(_ top: Trip, tripped: [DailyMeasure]) -> String {
        ([top.measure.metric] + tripped.filter { $0.metric != top.measure.metric }.map(\.metric)).joined(separator: ",")
    }

    /// How `top`'s value compares with what was expected ("12.3×", "1/40 of").
    static func ratio(_ top: Trip) -> String {
        ratioText(top.value / top.measure.unit, top.expected / top.measure.unit)
    }

    /// What an outlier of `measure` means, in a sentence.
    static func note(_ measure: DailyMeasure, ratio: String) -> String {
        "\(measure.metric) is \(ratio) the usual for the day"
    }

    private static func eventAlarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        var alarms: [Alarm] = []
        for feed in series.eventWeeks.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let weeks = series.eventWeeks[feed] else { continue }
            for start in weeks.starts {
                guard let week = weeks[start], week.complete,
                    (start..<(start + 7)).contains(where: series.judged.contains)
                else { continue }
                // Sorted once: ln(1 + count) keeps the order, so the baseline's own sort finds
                // its values in order already.
                var history = (1...eventHistoryWeeks).compactMap { weeks[start - 7 * $0].map { Double($0.count) } }
                RobustBaseline.insertionSort(&history)
                guard history.count >= RobustBaseline.minimumCount,
                    RobustBaseline.medianOfSorted(history) >= eventMinimumMedian,
                    let baseline = RobustBaseline(history.map { log(1 + $0) })
                else { continue }
                let score = baseline.score(log(1 + Double(week.count)))
                guard score > settings.z else { continue }
                let day = CivilDate(daysSinceEpoch: start)
                let expected = exp(baseline.median) - 1
                alarms.append(
                    Alarm(
                        kind: .outlier, feed: feed, store: series.store, days: .init(start: day, end: day),
                        metric: feed.rawValue, value: Double(week.count), expected: expected, score: score,
                        run: week.run,
                        note: "the week's count is \(ratioText(Double(week.count), expected)) the usual for the store"))
            }
        }
        return alarms
    }

    /// "12.3× " or "1/40 of" for a value against what was expected.
    static func ratioText(_ value: Double, _ expected: Double) -> String {
        guard expected > 0 else { return "far from" }
        let ratio = value / expected
        if ratio >= 1 { return fixed(ratio, places: 1) + "×" }
        return ratio > 0 ? "1/" + fixed(1 / ratio, places: 0) + " of" : "far from"
    }

    /// `value` with `places` decimals (0 or 1), as `String(format: "%.1f")` writes it: the
    /// exact binary value rounded to the nearest, a tie to the even digit, as the C library's
    /// `printf` (which Foundation's formatting calls) rounds. Done in integers, without
    /// Foundation's cost: an ingest may name tens of thousands of outliers.
    static func fixed(_ value: Double, places: Int) -> String {
        let scale: UInt64 = places == 0 ? 1 : 10
        guard value.isFinite, value >= 0, value < 1e15 else { return String(format: "%.\(places)f", value) }
        // value = significand × 2^exponent, exactly.
        let significand = value.significandBitPattern | (value.isNormal ? 1 << 52 : 0)
        let exponent = value.isNormal ? Int(value.exponent) - 52 : -1074
        let scaled = significand * scale
        var units: UInt64
        if exponent >= 0 {
            units = scaled << UInt64(exponent)
        } else if -exponent > 60 {
            // Below 2^-3 of a unit: rounds to 0.
            units = 0
        } else {
            let shift = UInt64(-exponent)
            units = scaled >> shift
            let remainder = scaled & ((1 << shift) - 1)
            let half: UInt64 = 1 << (shift - 1)
            if remainder > half || (remainder == half && units % 2 == 1) { units += 1 }
        }
        return places == 0 ? String(units) : "\(units / 10).\(units % 10)"
    }
}
