import CivilCalendar
import Feeds

/// `reconcile` (SPEC section 18), on store-days that have both associate and sales-audit rows:
/// associate sales summed differ from the store's sales by more than the tolerance (a share of
/// the store's sales, and at least the floor); with `reconcileMerch`, vendor and category sales
/// per store-month against the month's sales-audit sales, for months the series holds whole
/// and whose every day has a sales-audit row (the alarm's date is the month's first day).
enum ReconcileCheck {
    static func alarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        dailyAlarms(series, settings: settings)
            + (settings.reconcileMerch ? merchAlarms(series, settings: settings) : [])
    }

    /// The tolerance for `cents` of sales: a share of them, at least the floor.
    private static func allowed(_ cents: Int64, _ settings: CheckSettings) -> Double {
        max(Double(cents).magnitude * settings.tolerance, Double(settings.toleranceFloorCents))
    }

    private static func dailyAlarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        var alarms: [Alarm] = []
        for index in series.sales.indices where series.isJudged(index) {
            guard let sales = series.sales[index], let associates = series.associates[index] else { continue }
            let difference = Double(associates.cents - sales.cents).magnitude
            let allowed = allowed(sales.cents, settings)
            guard difference > allowed else { continue }
            alarms.append(
                Alarm(
                    kind: .reconcile, feed: .employeePerformance, store: series.store,
                    days: DateRange(start: series.date(index), end: series.date(index)), metric: "associateSales",
                    value: Double(associates.cents) / 100, expected: Double(sales.cents) / 100,
                    score: difference / allowed, run: associates.run,
                    note: "associate sales differ from the store's sales by more than the tolerance"))
        }
        return alarms
    }

    private static func merchAlarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        var alarms: [Alarm] = []
        for (first, month) in series.merchMonths.sorted(by: { $0.key < $1.key }) {
            let start = CivilDate(daysSinceEpoch: first)
            let days = CivilDate.daysIn(month: start.month, year: start.year)
            let positions = (first - series.first)...(first - series.first + days - 1)
            guard positions.lowerBound >= 0, positions.upperBound < series.sales.count, series.isJudged(positions)
            else { continue }
            let sales = positions.compactMap { series.sales[$0]?.cents }
            guard sales.count == days else { continue }
            let total = sales.reduce(0, +)
            for (metric, cents) in [("vendorSales", month.vendorCents), ("categorySales", month.categoryCents)] {
                guard let cents else { continue }
                let difference = Double(cents - total).magnitude
                let allowed = allowed(total, settings)
                guard difference > allowed else { continue }
                alarms.append(
                    Alarm(
                        kind: .reconcile, feed: .merchSales, store: series.store,
                        days: DateRange(start: start, end: start), metric: metric, value: Double(cents) / 100,
                        expected: Double(total) / 100, score: difference / allowed, run: month.run,
                        note: "\(metric) for the month differ from the store's sales by more than the tolerance"))
            }
        }
        return alarms
    }
}
