import Checks
import CivilCalendar
import Feeds
import SheetFixtures
import XCTest

/// How good the checks are (issue 21 §2): a clean 40-store × 3-year chain, each fault kind
/// injected at random stores and dates, recall per kind (the alarm of the expected kind names
/// the store and the date) and the share of clean store-days flagged. The thresholds are the
/// SPEC's defaults: the method is tuned, never the data.
final class FaultInjectionTests: XCTestCase {
    /// A fault an export can carry, and the alarm kind that must name it.
    enum Fault: String, CaseIterable {
        case salesTimes10 = "sales ×10"
        case salesTimes100 = "sales ×100"
        case salesOver100 = "sales ÷100"
        case fileTimes100 = "a whole nightly file ×100"
        case zeroedDay = "zeroed store-day"
        case missingDay = "missing store-day"
        case weekCopied = "week copied over the next"
        case redatedYear = "file re-dated by a year"
        case associatesOff = "associate sales off by 10 %"
        case negativeTransactions = "negative transactions"

        var expectedKind: AlarmKind {
            switch self {
            case .salesTimes10, .salesTimes100, .salesOver100, .fileTimes100: return .outlier
            case .zeroedDay, .missingDay: return .zeroDay
            case .weekCopied: return .repeatedPeriod
            case .redatedYear: return .dateShift
            case .associatesOff: return .reconcile
            case .negativeTransactions: return .implausible
            }
        }
    }

    static let days = DateRange(
        start: CivilDate(year: 2023, month: 1, day: 1), end: CivilDate(year: 2025, month: 12, day: 31))

    var settings: CheckSettings {
        var settings = CheckSettings()
        settings.closed = SyntheticChain.closed
        return settings
    }

    func testRecallPerKindAndFalseAlarmRate() {
        let clean = SyntheticChain(storeCount: 40, days: Self.days, seed: 2026)
        var lines = ["| fault | kind | injected | flagged | recall |", "|---|---|---|---|---|"]
        for (number, fault) in Fault.allCases.enumerated() {
            var chain = clean
            var random = SplitMix(seed: 7 + UInt64(number))
            let injected = inject(fault, into: &chain, random: &random)
            let alarms = AlarmScan(settings: settings).alarms(chain.stores)
            let flagged = injected.filter { target in
                alarms.contains { alarm in
                    alarm.kind == fault.expectedKind && alarm.store == target.store && alarm.days.contains(target.date)
                }
            }
            let recall = Double(flagged.count) / Double(injected.count)
            if ProcessInfo.processInfo.environment["SHOW_MISSES"] != nil {
                for miss in Set(injected).subtracting(flagged) {
                    print("miss", fault.rawValue, miss.store, miss.date.iso8601)
                }
            }
            lines.append(
                "| \(fault.rawValue) | \(fault.expectedKind.rawValue) | \(injected.count) | \(flagged.count) | \(String(format: "%.1f %%", recall * 100)) |"
            )
            XCTAssertGreaterThanOrEqual(injected.count, 50, "\(fault.rawValue): too few injections to measure")
            XCTAssertGreaterThanOrEqual(recall, 0.95, "\(fault.rawValue): recall \(recall)")
        }
        let (flaggedDays, storeDays, byKind) = falseAlarms(clean)
        let rate = Double(flaggedDays) / Double(storeDays)
        lines.append("")
        lines.append(
            "false alarms on the clean chain: \(flaggedDays) of \(storeDays) store-days (\(String(format: "%.3f %%", rate * 100))); by kind: \(byKind)"
        )
        print(lines.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(rate, 0.005)
    }

    /// The clean store-days any alarm names, the store-days with a row, and alarms per kind.
    private func falseAlarms(_ chain: SyntheticChain) -> (flagged: Int, storeDays: Int, byKind: [String: Int]) {
        let alarms = AlarmScan(settings: settings).alarms(chain.stores)
        var flagged = Set<String>()
        for alarm in alarms {
            for day in alarm.days.start.daysSinceEpoch...alarm.days.end.daysSinceEpoch {
                flagged.insert("\(alarm.store) \(day)")
            }
        }
        let storeDays = chain.stores.reduce(0) { $0 + $1.sales.compactMap { $0 }.count }
        return (flagged.count, storeDays, Dictionary(grouping: alarms, by: \.kind.rawValue).mapValues(\.count))
    }

    /// A store and date a fault was injected at.
    struct Target: Hashable {
        let store: String
        let date: CivilDate
    }

    /// Injects `fault` at random stores and dates, at least 10 weeks apart within a store (so no
    /// fault sits in another's history), after a year of history; returns where.
    private func inject(_ fault: Fault, into chain: inout SyntheticChain, random: inout SplitMix) -> [Target] {
        var targets: [Target] = []
        var newRun: Int64 = 1_000_000
        if fault == .redatedYear || fault == .fileTimes100 {
            // A whole nightly file, every store, sent with last year's rows or with its decimal
            // shifted: one date every 5 weeks.
            var index = 400 + random.int(0..<7)
            while index < Self.days.days - 1 {
                newRun += 1
                for storeIndex in chain.stores.indices {
                    guard let earlier = chain.stores[storeIndex].sales[index - 364],
                        var copy = chain.stores[storeIndex].sales[index]
                    else { continue }
                    if fault == .redatedYear { copy = earlier } else { copy.cents *= 100 }
                    copy.run = newRun
                    chain.stores[storeIndex].sales[index] = copy
                    targets.append(
                        Target(store: chain.stores[storeIndex].store, date: chain.stores[storeIndex].date(index)))
                }
                index += 35
            }
            return targets
        }
        for storeIndex in chain.stores.indices {
            var index = 370 + random.int(0..<60)
            while index < Self.days.days - 8 {
                defer { index += 70 + random.int(0..<30) }
                var series = chain.stores[storeIndex]
                guard (index - 7...index + 6).allSatisfy({ series.sales[$0] != nil }), var day = series.sales[index]
                else {
                    continue
                }
                // At least 6 of the previous 8 weekdays traded, so there is history to judge by.
                guard (1...8).filter({ series.sales[index - 7 * $0] != nil }).count >= 6 else { continue }
                newRun += 1
                switch fault {
                case .salesTimes10: day.cents *= 10
                case .salesTimes100: day.cents *= 100
                case .salesOver100: day.cents /= 100
                case .zeroedDay:
                    day = SalesDay(
                        cents: 0, transactions: 0, items: 0, ccpMillionths: nil, gpMillionths: nil, run: newRun)
                case .missingDay: break
                case .weekCopied:
                    for offset in 0..<7 {
                        series.sales[index + offset] = series.sales[index + offset - 7].map { copied in
                            var row = copied
                            row.run = newRun
                            return row
                        }
                    }
                case .redatedYear, .fileTimes100: break
                case .associatesOff:
                    series.associates[index] = AssociateDay(cents: day.cents * 9 / 10, run: newRun)
                case .negativeTransactions: day.transactions = day.transactions.map { -$0 }
                }
                day.run = newRun
                if fault == .missingDay {
                    series.sales[index] = nil
                    series.associates[index] = nil
                } else if fault != .weekCopied {
                    series.sales[index] = day
                }
                chain.stores[storeIndex] = series
                targets.append(Target(store: series.store, date: series.date(index)))
            }
        }
        return targets
    }
}
