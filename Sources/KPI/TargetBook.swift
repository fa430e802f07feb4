import Feeds
import SheetStream
import Warehouse

/// Merged goals (SPEC section 7): per store, month and metric, the store's daily targets for the
/// month (when any exist) beat its monthly target, which beats the `global` per-store default.
struct TargetBook {
    private struct Key: Hashable { let scope: String; let month: String; let metric: String }
    private var monthly: [Key: Double] = [:]
    private var daily: [Key: [(date: CivilDate, target: Double)]] = [:]

    init(goals: [GoalRecord]) {
        for goal in goals {
            let key = Key(scope: goal.scope, month: goal.period, metric: goal.metric)
            if let date = goal.date {
                daily[key, default: []].append((date, goal.target))
            } else {
                monthly[key] = goal.target
            }
        }
    }

    /// The monthly target of a store for a month: its own, else the global default.
    func monthlyTarget(store: String, month: String, metric: String) -> Double? {
        monthly[Key(scope: store, month: month, metric: metric)] ?? monthly[Key(scope: "global", month: month, metric: metric)]
    }

    /// An additive metric's target for one store over part of a month: the sum of its daily
    /// targets on those days when the month has daily targets, else the monthly target prorated
    /// by calendar days.
    func additiveTarget(store: String, month: String, part: DateRange, metric: String) -> Double? {
        if let days = daily[Key(scope: store, month: month, metric: metric)] {
            return days.filter { part.contains($0.date) }.map(\.target).reduce(0, +)
        }
        guard let target = monthlyTarget(store: store, month: month, metric: metric) else { return nil }
        let daysInMonth = CivilDate.daysIn(month: part.start.month, year: part.start.year)
        return target * Double(part.days) / Double(daysInMonth)
    }

    /// The months goals are needed for, to load no more than that.
    static func months(of ranges: [DateRange]) -> Set<String> {
        Set(ranges.flatMap { $0.monthParts.map(\.month) })
    }
}
