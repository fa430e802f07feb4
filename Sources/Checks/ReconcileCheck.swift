import CivilCalendar
import Feeds

/// `reconcile` (SPEC section 18), on store-days that have both associate and sales-audit rows:
/// associate sales summed differ from the store's sales by more than the tolerance (a share of
/// the store's sales, and at least the floor).
enum ReconcileCheck {
    static func alarms(_ series: StoreSeries, settings: CheckSettings) -> [Alarm] {
        var alarms: [Alarm] = []
        for index in series.sales.indices where series.isJudged(index) {
            guard let sales = series.sales[index], let associates = series.associates[index] else { continue }
            let difference = Double(associates.cents - sales.cents).magnitude
            let allowed = max(Double(sales.cents).magnitude * settings.tolerance, Double(settings.toleranceFloorCents))
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
}
