import Checks
import CivilCalendar
import Feeds
import Foundation
import SheetFixtures

/// A clean multi-year chain in memory for the checks' fault-injection suite: stores with their
/// own level, weekly seasonality, a year's rhythm (a December peak, a January lull), holidays
/// (closed on Christmas, a Black Friday peak), day-to-day noise, a store that opens and one
/// that closes, associate sales that add up, and credit applications per day. One run per day
/// (the nightly file), so a day's rows share their run like the real thing.
struct SyntheticChain {
    static let closed = [ClosedDay.everyYear(month: 12, day: 25)]

    let days: DateRange
    var stores: [StoreSeries]

    /// `storeCount` stores over `days`; the second-to-last store opens a third of the way in,
    /// the last closes two thirds of the way in.
    init(storeCount: Int, days: DateRange, seed: UInt64) {
        self.days = days
        var random = SplitMix(seed: seed)
        let weekdayFactors = [0.85, 0.8, 0.9, 0.95, 1.15, 1.45, 0.9]  // Monday … Sunday
        let opening = days.start.adding(days: days.days / 3)
        let closing = days.start.adding(days: days.days * 2 / 3)
        stores = (1...storeCount).map { number in
            let code = String(format: "%02d", number)
            var series = StoreSeries(
                store: code, days: days, judged: .range(days.start.daysSinceEpoch...days.end.daysSinceEpoch))
            let level = 6_000 * exp(random.normal() * 0.5)
            let ticket = 250 * exp(random.normal() * 0.3)
            let unitsPerSale = 1.4 + random.unit() * 0.6
            let appsPerDay = 3 + random.unit() * 6
            var apps = EventWeeks(
                first: days.start.weekStart(on: 0).daysSinceEpoch, count: days.days / 7 + 2)
            for index in 0..<days.days {
                let date = series.date(index)
                if number == storeCount - 1, date < opening { continue }
                if number == storeCount, date > closing { continue }
                if Self.closed.contains(where: { $0.excuses(date) }) { continue }
                let dollars =
                    level * weekdayFactors[date.weekdayIndex] * Self.season(date) * exp(random.normal() * 0.12)
                let cents = Int64((dollars * 100).rounded())
                let transactions = max(1, Int64((dollars / ticket * exp(random.normal() * 0.08)).rounded()))
                let items = max(
                    transactions, Int64((Double(transactions) * unitsPerSale * exp(random.normal() * 0.05)).rounded()))
                let run = Int64(date.daysSinceEpoch)
                series.sales[index] = SalesDay(
                    cents: cents, transactions: transactions, items: items,
                    ccpMillionths: Int64(200_000 + random.unit() * 300_000),
                    gpMillionths: Int64(450_000 + random.unit() * 100_000), run: run)
                // Associates add up to the store's sales, give or take a rounding cent.
                series.associates[index] = AssociateDay(cents: cents + Int64(random.unit() * 3) - 1, run: run)
                let week = date.weekStart(on: 0).daysSinceEpoch
                let count = random.poisson(appsPerDay)
                var entry = apps[week] ?? EventWeek(count: 0, run: run, complete: true)
                entry.count += Int64(count)
                entry.run = run
                apps[week] = entry
            }
            series.eventWeeks[.creditApps] = apps
            return series
        }
    }

    /// The year's rhythm: a January lull, a December peak, Black Friday, Christmas Eve.
    static func season(_ date: CivilDate) -> Double {
        let monthly = [0.8, 0.85, 0.95, 1.0, 1.05, 1.0, 0.95, 1.0, 0.95, 1.0, 1.1, 1.45][date.month - 1]
        if date.month == 11, date.weekdayIndex == 4, (23...29).contains(date.day) { return monthly * 1.8 }
        if date.month == 12, date.day == 24 { return monthly * 1.3 }
        return monthly
    }
}
