import CivilCalendar
import Feeds

/// `zero-day` (SPEC section 18): a store with 0 sales, or no sales-audit row, on a day between
/// its first and last sales-audit dates, when it had sales on at least 6 of the previous 8 same
/// weekdays; the config's closed days, and the days the export marks closed, are excused.
enum ZeroDayCheck {
    static let previousWeekdays = 8
    static let usualTradingDays = 6

    static func alarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        guard let firstRow = series.sales.firstIndex(where: { $0 != nil }),
            let lastRow = series.sales.lastIndex(where: { $0 != nil })
        else { return [] }
        return (firstRow...lastRow).compactMap { index in
            guard series.isJudged(index) else { return nil }
            return alarm(
                store: series.store, day: series.first + index, row: series.sales[index], settings: settings,
                weeksBefore: { weeks in index - 7 * weeks >= 0 ? series.sales[index - 7 * weeks] : nil })
        }
    }

    /// Whether a day's row (`nil` for none) has no sales: the days the check looks at.
    static func hasNoSales(_ row: SalesDay?) -> Bool { (row?.cents ?? 0) == 0 }

    /// The alarm of one day (days since the epoch) inside a store's range, when it has no sales:
    /// `row` is the day's row (`nil` for none), `weeksBefore(k)` the row of the same weekday `k`
    /// weeks earlier.
    static func alarm(
        store: String, day: Int, row: SalesDay?, settings: CheckSettings, weeksBefore: (Int) -> SalesDay?
    ) -> Alarm? {
        guard hasNoSales(row), row?.closed != true else { return nil }
        let date = CivilDate(daysSinceEpoch: day)
        guard !settings.isClosed(date, store: store) else { return nil }
        let previous = (1...previousWeekdays).compactMap { weeksBefore($0)?.cents }.filter { $0 > 0 }
        guard previous.count >= usualTradingDays else { return nil }
        let usual = RobustBaseline.median(previous.map(Double.init)) / 100
        return Alarm(
            kind: .zeroDay, feed: .salesAudit, store: store, days: DateRange(start: date, end: date),
            metric: "totalSales", value: 0, expected: usual, score: Double(previous.count), run: row?.run,
            note: row == nil
                ? "no sales-audit row; the store had sales on \(previous.count) of the previous \(previousWeekdays) same weekdays"
                : "zero sales; the store had sales on \(previous.count) of the previous \(previousWeekdays) same weekdays"
        )
    }
}
