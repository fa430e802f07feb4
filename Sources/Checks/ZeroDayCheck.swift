import CivilCalendar
import Feeds

/// `zero-day` (SPEC section 18): a store with 0 sales, or no sales-audit row, on a day between
/// its first and last sales-audit dates, when it had sales on at least 6 of the previous 8 same
/// weekdays; the config's closed days are excused.
enum ZeroDayCheck {
    static let previousWeekdays = 8
    static let usualTradingDays = 6

    static func alarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        guard let firstRow = series.sales.firstIndex(where: { $0 != nil }),
            let lastRow = series.sales.lastIndex(where: { $0 != nil })
        else { return [] }
        var alarms: [Alarm] = []
        for index in firstRow...lastRow where series.isJudged(index) {
            let day = series.sales[index]
            guard (day?.cents ?? 0) == 0, !settings.isClosed(series.date(index)) else { continue }
            let previous = (1...previousWeekdays).map { index - 7 * $0 }.filter { $0 >= 0 }.compactMap {
                series.sales[$0]?.cents
            }.filter { $0 > 0 }
            guard previous.count >= usualTradingDays else { continue }
            let usual = RobustBaseline.median(previous.map(Double.init)) / 100
            alarms.append(
                Alarm(
                    kind: .zeroDay, feed: .salesAudit, store: series.store,
                    days: DateRange(start: series.date(index), end: series.date(index)), metric: "totalSales",
                    value: 0, expected: usual, score: Double(previous.count), run: day?.run,
                    note: day == nil
                        ? "no sales-audit row; the store had sales on \(previous.count) of the previous \(previousWeekdays) same weekdays"
                        : "zero sales; the store had sales on \(previous.count) of the previous \(previousWeekdays) same weekdays"
                ))
        }
        return alarms
    }
}
