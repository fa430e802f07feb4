import CivilCalendar
import Feeds
import Foundation
import SheetFixtures
import XCTest

@testable import Checks

/// `StreamingScan` (the ingest gate's checks, day by day) finds what `AlarmScan` finds over the
/// same sales-audit rows, and its parts equal what they replace.
final class StreamingScanTests: XCTestCase {
    /// A synthetic chain with faults of every sales-audit kind, judged from a day after its
    /// first year (and from its first day), rows given day by day in a shuffled store order.
    func testTheScanDayByDayFindsWhatTheScanOfSeriesFinds() {
        let days = DateRange(
            start: CivilDate(year: 2023, month: 1, day: 1), end: CivilDate(year: 2024, month: 12, day: 31))
        var random = SplitMix(seed: 21)
        var chain = SyntheticChain(storeCount: 12, days: days, seed: 4)
        for store in chain.stores.indices {
            chain.stores[store].associates = Array(repeating: nil, count: days.days)
            chain.stores[store].eventWeeks = [:]
            for index in 0..<days.days { injectFault(into: &chain.stores[store], at: index, random: &random) }
        }
        // A whole day ×100, and a day re-dated from a year before, every store, each its own run.
        for (index, run) in [(500, Int64(2_000_001)), (600, 2_000_002)] {
            for store in chain.stores.indices {
                guard var row = chain.stores[store].sales[index], let earlier = chain.stores[store].sales[index - 364]
                else { continue }
                if run == 2_000_001 { row.cents *= 100 } else { row = earlier }
                row.run = run
                chain.stores[store].sales[index] = row
            }
        }
        var settings = CheckSettings()
        settings.closed = SyntheticChain.closed
        var kinds = Set<AlarmKind>()
        for judgedFrom in [days.start.daysSinceEpoch, days.start.daysSinceEpoch + 400] {
            var stores = chain.stores
            for index in stores.indices { stores[index].judged = .range(judgedFrom...days.end.daysSinceEpoch) }
            let expected = AlarmScan(settings: settings).alarms(stores)
            var scan = StreamingScan(settings: settings, firstDay: days.start.daysSinceEpoch, judgedFrom: judgedFrom)
            for index in 0..<days.days {
                for store in stores.indices.shuffled(using: &random) {
                    guard let row = stores[store].sales[index] else { continue }
                    XCTAssertTrue(scan.add(store: stores[store].store, day: days.start.daysSinceEpoch + index, row))
                }
            }
            scan.finish()
            let found = scan.alarms()
            XCTAssertEqual(found.count, expected.count)
            for (streamed, whole) in zip(found, expected) where streamed != whole {
                XCTFail("streamed \(streamed)\nexpected \(whole)")
                break
            }
            kinds.formUnion(expected.map(\.kind))
        }
        XCTAssertEqual(kinds, [.outlier, .zeroDay, .repeatedPeriod, .dateShift, .implausible])
    }

    /// A fault now and then: ×100, ÷100, a zero day, a missing day, negative transactions, or
    /// a week copied from 7, 28, 35 or 364 days before.
    private func injectFault(into series: inout StoreSeries, at index: Int, random: inout SplitMix) {
        guard var row = series.sales[index] else { return }
        switch random.unit() {
        case ..<0.003: row.cents *= 100
        case ..<0.005: row.cents /= 100
        case ..<0.008:
            row = SalesDay(cents: 0, transactions: 0, items: 0, ccpMillionths: nil, gpMillionths: nil, run: row.run)
        case ..<0.011:
            series.sales[index] = nil
            return
        case ..<0.013: row.transactions = row.transactions.map { -$0 }
        case ..<0.016:
            let lag = RepeatedPeriodCheck.lags[random.int(0..<4)]
            for offset in 0..<(7 + random.int(0..<4)) where index + offset < series.sales.count && index + offset >= lag
            {
                series.sales[index + offset] = series.sales[index + offset - lag]
            }
            return
        default: return
        }
        series.sales[index] = row
    }

    func testTheMedianBySelectionIsTheMedianBySorting() {
        var random = SplitMix(seed: 5)
        for count in 1...60 {
            for _ in 0..<50 {
                // Few distinct values, so that ties are common.
                var values = (0..<count).map { _ in
                    Double(random.int(0..<7)) + (random.unit() < 0.5 ? 0 : random.unit())
                }
                let sorted = RobustBaseline.median(values)
                XCTAssertEqual(RobustBaseline.median(selecting: &values), sorted, "\(values)")
            }
        }
    }

    func testEightValuesAndTheirBaselineAreTheSortedOnes() {
        var random = SplitMix(seed: 7)
        for _ in 0..<20_000 {
            let values = (0..<8).map { _ in Double(random.int(0..<5)) + (random.unit() < 0.3 ? 0 : random.unit()) }
            guard
                let eight = EightValues(
                    sorting: values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7])
            else { return XCTFail("no NaN among \(values)") }
            XCTAssertEqual(Array(eight), values.sorted())
            let sorted = RobustBaseline(sorted: eight)
            let gathered = RobustBaseline(values)
            XCTAssertEqual(sorted.median, gathered?.median)
            XCTAssertEqual(sorted.spread, gathered?.spread)
        }
        XCTAssertNil(EightValues(sorting: 1, 2, 3, .nan, 5, 6, 7, 8))
    }

    /// The shortcut that counts the reference days near a value never calls usual a day the
    /// full judgement does not (random windows, some days without a value, values near the reach).
    func testMostReferencesNearMeansUsual() {
        var random = SplitMix(seed: 8)
        var reference = ReferenceDays()
        var shortcuts = 0
        for _ in 0..<50_000 {
            // 56 days before the judged one; its same weekdays are every 7th from the end.
            var values = (0..<57).map { _ in random.normal() * [0.2, 0.6, 1.2][random.int(0..<3)] }
            for index in 0..<56 where random.unit() < 0.05 { values[index] = .nan }
            let day = 56
            guard ReferenceDays.isUsualByMost(values[day], threshold: 5, { values[day - 7 * ($0 + 1)] }) else {
                continue
            }
            shortcuts += 1
            guard case .usual = reference.judgeGathering(values, at: day, earliest: 0, threshold: 5) else {
                return XCTFail("called usual, judged otherwise: \(values)")
            }
        }
        XCTAssertGreaterThan(shortcuts, 10_000)
    }

    func testFixedDecimalsAreStringFormatsOwn() {
        var random = SplitMix(seed: 6)
        var values: [Double] = [
            0, 0.05, 0.15, 0.25, 0.45, 1.05, 2.25, 2.35, 12.45, 99.95, 1e20, 1.7976931348623157e308, 5e-324,
        ]
        for _ in 0..<20_000 { values.append(exp(random.normal() * 4)) }
        for _ in 0..<2_000 { values.append(Double(random.int(0..<100_000)) / 100 + 0.05) }
        // Exact ties of both roundings, and values from every binade.
        for _ in 0..<2_000 { values.append(Double(random.int(0..<400_000)) / [2, 4, 8][random.int(0..<3)]) }
        for _ in 0..<2_000 { values.append(Double(bitPattern: random.next() % 0x4300_0000_0000_0000)) }
        for value in values {
            XCTAssertEqual(OutlierCheck.fixed(value, places: 1), String(format: "%.1f", value))
            XCTAssertEqual(OutlierCheck.fixed(value, places: 0), String(format: "%.0f", value))
        }
    }
}
