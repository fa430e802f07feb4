import CivilCalendar
import Feeds
import XCTest

@testable import Checks

/// Each check on small hand-made series, with the exact alarm it gives.
final class DetectorTests: XCTestCase {
    static let first = CivilDate(year: 2025, month: 1, day: 1)

    /// A store with `days` days of sales: 1,000.00 + 10 × (day mod 17) dollars, so no two
    /// nearby days are equal; every day judged; one run per day.
    private func series(_ store: String = "08", days: Int) -> StoreSeries {
        let range = DateRange(start: Self.first, end: Self.first.adding(days: days - 1))
        var series = StoreSeries(
            store: store, days: range, judged: .range(range.start.daysSinceEpoch...range.end.daysSinceEpoch))
        for index in 0..<days {
            series.sales[index] = SalesDay(
                cents: 100_000 + Int64(index % 17) * 1_000 + Int64(index), transactions: 10 + Int64(index % 5),
                items: 15 + Int64(index % 7), ccpMillionths: 400_000, gpMillionths: 500_000,
                run: Int64(index + 1))
        }
        return series
    }

    private func scan(_ stores: [StoreSeries], _ settings: CheckSettings = CheckSettings()) -> [Alarm] {
        AlarmScan(settings: settings).alarms(stores)
    }

    func testRobustBaselineAndItsFloor() {
        XCTAssertEqual(RobustBaseline([1, 2, 3, 4, 5])?.median, 3)
        XCTAssertEqual(RobustBaseline([1, 2, 3, 4, 5])?.spread ?? 0, 1.4826, accuracy: 1e-12)
        XCTAssertEqual(RobustBaseline([2, 2, 2, 2, 2])?.spread ?? 0, 1.4826 * 0.15, accuracy: 1e-12)
        XCTAssertEqual(RobustBaseline([1, 2, 3, 4, 5])?.score(6) ?? 0, 3 / 1.4826, accuracy: 1e-12)
        XCTAssertNil(RobustBaseline([1, 2, 3, 4]), "fewer than 5 values give no baseline")
    }

    func testClosedDays() {
        XCTAssertEqual(ClosedDay("12-25"), .everyYear(month: 12, day: 25))
        XCTAssertEqual(ClosedDay("2025-07-04"), .once(CivilDate(year: 2025, month: 7, day: 4)))
        XCTAssertNil(ClosedDay("25-12"))
        XCTAssertNil(ClosedDay("02-30"))
        XCTAssertTrue(ClosedDay("12-25")?.excuses(CivilDate(year: 2031, month: 12, day: 25)) ?? false)
    }

    /// SPEC section 26: Easter and the days around it, Thanksgiving (US) and Black Friday, on
    /// their dates of each year, excuse a zero day.
    func testMoveableClosedDays() {
        let dates: [(String, [String])] = [
            ("easter", ["2024-03-31", "2025-04-20", "2026-04-05", "2000-04-23", "2038-04-25"]),
            ("good-friday", ["2025-04-18", "2024-03-29"]),
            ("easter-monday", ["2025-04-21", "2026-04-06"]),
            ("thanksgiving", ["2024-11-28", "2025-11-27", "2026-11-26", "2020-11-26"]),
            ("black-friday", ["2025-11-28", "2026-11-27"]),
        ]
        for (name, days) in dates {
            let closed = ClosedDay(name)
            XCTAssertNotNil(closed, name)
            for text in days {
                let day = CivilDate(iso8601: text) ?? Self.first
                XCTAssertTrue(closed?.excuses(day) ?? false, "\(name) \(text)")
                XCTAssertFalse(closed?.excuses(day.adding(days: 7)) ?? true, "\(name) a week after \(text)")
            }
        }
        XCTAssertNil(ClosedDay("Easter"))

        // A store that trades every day but Easter Sunday 2025, a zero day the config excuses.
        var store = series(days: 120)
        let easter = CivilDate(year: 2025, month: 4, day: 20)
        let index = easter.daysSinceEpoch - Self.first.daysSinceEpoch
        store.sales[index]?.cents = 0
        XCTAssertEqual(scan([store]).filter { $0.kind == .zeroDay }.map(\.days.start), [easter])
        var settings = CheckSettings()
        settings.closed = [ClosedDay("easter")].compactMap { $0 }
        XCTAssertEqual(scan([store], settings).filter { $0.kind == .zeroDay }, [])
    }

    /// SPEC section 26: a store entry excuses its stores' zero days and no other's; a region
    /// entry, once resolved against the store directory, its region's stores'; an entry the
    /// directory does not bear out is an error.
    func testStoreAndRegionClosedDays() throws {
        let day = CivilDate(year: 2025, month: 4, day: 10)
        let index = day.daysSinceEpoch - Self.first.daysSinceEpoch
        let stores = ["08", "10", "12"].map { code -> StoreSeries in
            var store = series(code, days: 120)
            store.sales[index]?.cents = 0
            return store
        }
        func zeroDays(_ settings: CheckSettings) -> [String] {
            scan(stores, settings).filter { $0.kind == .zeroDay }.map(\.store)
        }
        XCTAssertEqual(zeroDays(CheckSettings()), ["08", "10", "12"])

        var settings = CheckSettings()
        settings.storeClosed = [StoreClosedDays(stores: ["08", "12"], days: [.once(day)])]
        XCTAssertEqual(zeroDays(settings), ["10"])
        settings.storeClosed = [StoreClosedDays(stores: ["08"], days: [.once(day.adding(days: 7))])]
        XCTAssertEqual(zeroDays(settings), ["08", "10", "12"], "another day of store 08's excuses nothing")

        let directory: [(code: String, region: String?)] = [
            ("08", "East"), ("10", "East"), ("12", "West"), ("14", nil),
        ]
        settings.storeClosed = [StoreClosedDays(region: "East", days: [.everyYear(month: 4, day: 10)])]
        XCTAssertEqual(zeroDays(settings), ["08", "10", "12"], "a region not resolved names no store")
        let resolved = try settings.resolvingRegions(directory)
        XCTAssertEqual(resolved.storeClosed.first?.stores, ["08", "10"])
        XCTAssertEqual(zeroDays(resolved), ["12"])
        XCTAssertTrue(resolved.isClosed(day, store: "10"))
        XCTAssertFalse(resolved.isClosed(day, store: "12"))
        XCTAssertFalse(resolved.isClosed(day), "not a day of the whole chain")

        settings.storeClosed = [StoreClosedDays(region: "North", days: [.once(day)])]
        XCTAssertThrowsError(try settings.resolvingRegions(directory)) { error in
            XCTAssertEqual("\(error)", "region \"North\" is not in the store directory (its regions: East, West)")
        }
        XCTAssertThrowsError(try settings.resolvingRegions([("08", nil)])) { error in
            XCTAssertEqual("\(error)", "region \"North\" is not in the store directory (it has no regions)")
        }
        settings.storeClosed = [StoreClosedDays(stores: ["08", "99"], days: [.once(day)])]
        XCTAssertThrowsError(try settings.resolvingRegions(directory)) { error in
            XCTAssertEqual("\(error)", "store 99 is not in the store directory")
            XCTAssertEqual((error as? ClosedDaysError)?.entry, settings.storeClosed.first)
        }
    }

    func testJSONNumbers() {
        XCTAssertEqual(AlarmJSON.number(4493.11), "4493.11")
        XCTAssertEqual(AlarmJSON.number(5), "5")
        XCTAssertEqual(AlarmJSON.number(0.5), "0.5")
        XCTAssertEqual(AlarmJSON.number(-1.25), "-1.25")
        XCTAssertEqual(AlarmJSON.number(0.049), "0.05")
        XCTAssertEqual(AlarmJSON.number(nil), "null")
    }

    func testAShiftedDecimalIsAnOutlierWithItsExpectedValue() {
        var store = series(days: 70)
        store.sales[63]?.cents *= 100
        let alarms = scan([store])
        XCTAssertEqual(alarms.count, 1, "\(alarms)")
        XCTAssertEqual(alarms.first?.kind, .outlier)
        XCTAssertEqual(alarms.first?.days.start, Self.first.adding(days: 63))
        // The average sale moves with the sales and trips too: named after the sales read from the file.
        XCTAssertEqual(alarms.first?.metric, "totalSales,avgAds")
        XCTAssertEqual(alarms.first?.value, 112_063)
        // The median of the logarithms of the same weekday's 8 previous weeks: the geometric
        // mean of the middle two.
        let previous = (1...8).map { Double(store.sales[63 - 7 * $0]?.cents ?? 0) / 100 }.sorted()
        XCTAssertEqual(alarms.first?.expected ?? 0, (previous[3] * previous[4]).squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(alarms.first?.run, 64)
    }

    /// A new store whose weeks swing by ±40 % (transactions with them) and whose average sale
    /// stays near $50, over 70 days from a Wednesday; week 9's Wednesday (day 63) has its sales'
    /// decimal shifted, and its Thursday reports no transactions.
    private func noisyStore() -> StoreSeries {
        let range = DateRange(start: Self.first, end: Self.first.adding(days: 69))
        var series = StoreSeries(
            store: "31", days: range, judged: .range(range.start.daysSinceEpoch...range.end.daysSinceEpoch))
        let weeklyTransactions: [Int64] = [40, 24, 56, 26, 54, 28, 56, 24, 52, 40]
        for index in 0..<70 {
            let transactions = weeklyTransactions[index / 7]
            series.sales[index] = SalesDay(
                cents: transactions * 5_000 + Int64(index) * 100, transactions: transactions,
                items: transactions * 3 / 2, ccpMillionths: 400_000, gpMillionths: 500_000, run: Int64(index + 1))
        }
        series.sales[63]?.cents *= 10
        series.sales[64]?.cents *= 10
        series.sales[64]?.transactions = 0
        return series
    }

    /// SPEC section 18: a store-day's average sale is judged like its sales, so a ×10 on a
    /// noisy store is caught by the average sale although its sales alone are within reach;
    /// a day with no transactions has no average sale to judge.
    func testTheAverageSaleCatchesAShiftedDecimalOnANoisyStore() throws {
        let store = noisyStore()
        let alarms = scan([store])
        XCTAssertEqual(alarms.map(\.kind), [.outlier], "\(alarms)")
        let alarm = try XCTUnwrap(alarms.first)
        XCTAssertEqual(alarm.days.start, Self.first.adding(days: 63))
        XCTAssertEqual(alarm.metric, "avgAds", "the sales alone stay within the store's swings")
        XCTAssertEqual(alarm.value, 515.75)
        let previous = (1...8).map { week -> Double in
            let day = store.sales[63 - 7 * week]
            return Double(day?.cents ?? 0) / Double(day?.transactions ?? 1) / 100
        }.sorted()
        XCTAssertEqual(try XCTUnwrap(alarm.expected), (previous[3] * previous[4]).squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(
            alarm.score, log(515.75 / (previous[3] * previous[4]).squareRoot()) / (1.4826 * 0.15),
            accuracy: 1e-9)
        XCTAssertEqual(alarm.note, "avgAds is 10.2× the usual for the day")
        XCTAssertEqual(alarm.run, 64)

        // The sales alone: the store's swings put a ×10 within the threshold.
        var sales = [Double]()
        for week in 1...8 { sales.append(log(Double(store.sales[63 - 7 * week]?.cents ?? 0))) }
        let baseline = try XCTUnwrap(RobustBaseline(sales))
        XCTAssertLessThan(baseline.score(log(Double(store.sales[63]?.cents ?? 0))), 5)

        // The ingest gate's scan finds the same.
        var streaming = StreamingScan(
            settings: CheckSettings(), firstDay: Self.first.daysSinceEpoch, judgedFrom: Self.first.daysSinceEpoch)
        for index in 0..<70 {
            guard let row = store.sales[index] else { continue }
            XCTAssertTrue(streaming.add(store: store.store, day: Self.first.daysSinceEpoch + index, row))
        }
        streaming.finish()
        XCTAssertEqual(streaming.alarms(), alarms)
    }

    func testAMissingOrZeroDayOfAStoreThatTradesIsAZeroDayUnlessClosed() {
        var store = series(days: 70)
        store.sales[63] = nil
        store.sales[64]?.cents = 0
        let alarms = scan([store]).filter { $0.kind == .zeroDay }
        XCTAssertEqual(alarms.map(\.days.start), [Self.first.adding(days: 63), Self.first.adding(days: 64)])
        XCTAssertEqual(alarms.map(\.run), [nil, 65])
        XCTAssertEqual(alarms.first?.score, 8)
        var settings = CheckSettings()
        settings.closed = [.once(Self.first.adding(days: 63))]
        XCTAssertEqual(scan([store], settings).filter { $0.kind == .zeroDay }.count, 1)
    }

    func testACopiedWeekIsARepeatedPeriod() {
        var store = series(days: 40)
        for index in 21..<28 { store.sales[index] = store.sales[index - 7] }
        let alarms = scan([store]).filter { $0.kind == .repeatedPeriod }
        XCTAssertEqual(alarms.count, 1)
        XCTAssertEqual(
            alarms.first?.days, DateRange(start: Self.first.adding(days: 21), end: Self.first.adding(days: 27)))
        XCTAssertEqual(alarms.first?.score, 7)
        XCTAssertEqual(alarms.first?.note, "7 days with every figure equal to 7 days earlier")
    }

    func testLastYearsFileSentAsThisYearsIsADateShift() {
        var stores = [series("08", days: 400), series("10", days: 400)]
        for index in stores.indices {
            for day in 380..<387 {
                stores[index].sales[day] = stores[index].sales[day - 364]
                stores[index].sales[day]?.run = 999
            }
        }
        let alarms = scan(stores).filter { $0.kind == .dateShift }
        XCTAssertEqual(alarms.map(\.store), ["08", "10"])
        XCTAssertEqual(
            alarms.first?.days, DateRange(start: Self.first.adding(days: 380), end: Self.first.adding(days: 386)))
        XCTAssertEqual(alarms.first?.score, 1)
        XCTAssertEqual(alarms.first?.run, 999)
    }

    func testAssociatesAndMerchThatDoNotAddUpAreReconcileAlarms() {
        var store = series(days: 31)
        for index in 0..<31 { store.associates[index] = AssociateDay(cents: store.sales[index]?.cents ?? 0, run: 50) }
        // Sales are about $1,000 a day, so the tolerance is 0.5 % of them, about $5.
        store.associates[10]?.cents += 101  // $1.01: over the floor, under the share
        store.associates[11]?.cents += 1_000  // $10.00: over both
        let monthTotal = (0..<31).reduce(Int64(0)) { $0 + (store.sales[$1]?.cents ?? 0) }
        store.merchMonths[Self.first.daysSinceEpoch] = MerchMonth(
            vendorCents: monthTotal / 2, categoryCents: monthTotal, run: 60)
        var settings = CheckSettings()
        settings.reconcileMerch = true
        let alarms = scan([store], settings).filter { $0.kind == .reconcile }
        XCTAssertEqual(alarms.map(\.metric), ["vendorSales", "associateSales"])
        XCTAssertEqual(alarms.last?.days.start, Self.first.adding(days: 11))
        XCTAssertEqual(alarms.first?.days.start, Self.first)
        XCTAssertEqual(alarms.first?.feed, .merchSales)
        XCTAssertEqual(scan([store]).filter { $0.kind == .reconcile }.count, 1, "merch only with reconcile_merch")
    }

    /// SPEC section 26: a row whose file had no transactions or items column has them unknown
    /// (`nil`): no check reads them as 0, no ratio is judged over them, and sales still are.
    func testUnknownCountsAreNeverJudged() {
        var store = series(days: 70)
        for index in 0..<70 {
            store.sales[index]?.transactions = nil
            store.sales[index]?.items = nil
        }
        XCTAssertEqual(scan([store]).map(\.kind), [], "unknown counts raise nothing")
        store.sales[63]?.cents *= 100
        let alarms = scan([store])
        XCTAssertEqual(alarms.map(\.metric), ["totalSales"], "no average sale over unknown transactions")

        var mixed = series(days: 70)
        for index in 56..<70 { mixed.sales[index]?.items = nil }
        mixed.sales[60]?.transactions = nil
        XCTAssertEqual(scan([mixed]).map(\.kind), [], "a file without items after weeks with them")
        let day = SalesDay(cents: 500_000, transactions: nil, items: nil, ccpMillionths: nil, gpMillionths: nil, run: 1)
        XCTAssertTrue(ImplausibleCheck.isPlausible(day))
    }

    /// `isPlausible`, which the gate's scan asks of every row, says what the alarm says: on every
    /// row of known and unknown counts and percents at and past each limit.
    func testPlausibleExactlyWhenNoImplausibleAlarm() {
        let counts: [Int64?] = [nil, -1, 0, 1, 5]
        let itemCounts: [Int64?] = [nil, -1, 0, 20, 21, 100, 101]
        let percents: [Int64?] = [nil, -1, 0, 1_000_000, 1_000_001]
        var checked = 0
        for transactions in counts {
            for items in itemCounts {
                for cents: Int64 in [0, 10_000_000, 10_000_001, 50_000_000, 50_000_001] {
                    for ccp in percents {
                        for gp in [nil, 500_000, 1_000_001] as [Int64?] {
                            let row = SalesDay(
                                cents: cents, transactions: transactions, items: items, ccpMillionths: ccp,
                                gpMillionths: gp, run: 1)
                            XCTAssertEqual(
                                ImplausibleCheck.isPlausible(row),
                                ImplausibleCheck.alarm(store: "08", day: 20_000, row: row) == nil, "\(row)")
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(checked, 5 * 7 * 5 * 5 * 3)
    }

    func testImplausibleValuesNameEveryMeasure() {
        var store = series(days: 3)
        store.sales[1] = SalesDay(
            cents: 50_000, transactions: 2, items: 50, ccpMillionths: 1_200_000, gpMillionths: 500_000, run: 7)
        store.sales[2]?.transactions = -3
        let alarms = scan([store]).filter { $0.kind == .implausible }
        XCTAssertEqual(alarms.map(\.metric), ["ccpPct,upt", "totalTransactions"])
        XCTAssertEqual(alarms.first?.value, 120)
        XCTAssertEqual(alarms.first?.expected, 100)
        XCTAssertEqual(alarms.first?.score ?? 0, 1.2, accuracy: 1e-12)
    }

    /// Issue 42 N8: percents are stored in millionths of a whole, so 100 % is 1,000,000; a GP of
    /// 150 % or a CCP of 145 % is implausible, and the note prints percents as percents.
    func testPercentsOver100AreImplausibleInPercents() {
        var store = series(days: 5)
        store.sales[0]?.gpMillionths = 1_500_000
        store.sales[1]?.ccpMillionths = 1_450_000
        store.sales[2]?.ccpMillionths = 200_000_000
        store.sales[3]?.ccpMillionths = 1_000_000
        store.sales[3]?.gpMillionths = 0
        store.sales[4]?.gpMillionths = 1_000_001
        let alarms = scan([store]).filter { $0.kind == .implausible }
        XCTAssertEqual(
            alarms.map(\.days.start), [0, 1, 2, 4].map { Self.first.adding(days: $0) }, "100 % and 0 % are plausible")
        XCTAssertEqual(alarms.map(\.metric), ["gpPct", "ccpPct", "ccpPct", "gpPct"])
        XCTAssertEqual(alarms.map(\.value), [150, 145, 20_000, 100.0001])
        XCTAssertEqual(alarms.map(\.expected), [100, 100, 100, 100])
        XCTAssertEqual(alarms[2].score, 200, accuracy: 1e-12)
        XCTAssertEqual(
            alarms.map(\.note),
            [
                "gpPct 150 % (limit 100 %)", "ccpPct 145 % (limit 100 %)", "ccpPct 20000 % (limit 100 %)",
                "gpPct 100.0001 % (limit 100 %)",
            ])
        var negative = series(days: 1)
        negative.sales[0]?.ccpMillionths = -1
        XCTAssertEqual(scan([negative]).map(\.note), ["ccpPct -0.0001 % (limit 0 %)"])
    }
}
