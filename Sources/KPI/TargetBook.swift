import CivilCalendar
import Feeds
import Warehouse

/// Merged goals (SPEC section 7): per store, month and metric, the store's daily targets for the
/// month (when any exist) beat its monthly target, which beats the `global` per-store default.
///
/// Goals are filed per scope, then by (month, metric) as small integers, so that the engine's
/// per-store lookups hash one store code per store rather than three strings per lookup.
struct TargetBook {
    /// A month (`year × 12 + month − 1`) and a metric (its position in `MetricDefinition.all`).
    struct Key: Hashable {
        let month: Int
        let metric: Int
    }

    private var monthly: [String: [Key: Double]] = [:]
    private var daily: [String: [Key: [(date: CivilDate, target: Double)]]] = [:]

    init(goals: [GoalRecord]) {
        for goal in goals {
            guard let key = Self.key(month: goal.period, metric: goal.metric) else { continue }
            if let date = goal.date {
                daily[goal.scope, default: [:]][key, default: []].append((date, goal.target))
            } else {
                monthly[goal.scope, default: [:]][key] = goal.target
            }
        }
    }

    /// One store's targets, with the global defaults behind its own.
    func store(_ code: String) -> StoreTargets {
        StoreTargets(own: monthly[code] ?? [:], global: monthly["global"] ?? [:], daily: daily[code] ?? [:])
    }

    /// The monthly target of a store for a month (`YYYY-MM`): its own, else the global default.
    func monthlyTarget(store: String, month: String, metric: String) -> Double? {
        Self.key(month: month, metric: metric).flatMap { self.store(store).monthlyTarget($0) }
    }

    /// An additive metric's target for one store over part of a calendar month (`YYYY-MM`).
    func additiveTarget(store: String, month: String, part: DateRange, metric: String) -> Double? {
        guard let key = Self.key(month: month, metric: metric), let whole = GoalMonths.calendar.range(of: month) else {
            return nil
        }
        return self.store(store).additiveTarget(key, part: GoalMonthPart(label: month, part: part, month: whole))
    }

    /// The key of a goal month (`YYYY-MM`, or `FY2025-M04` in a retail calendar) and a metric's
    /// JSON key; `nil` for an unknown metric or month. A report reads one calendar's months, so
    /// both kinds share one numbering (`year × 12 + month − 1`).
    static func key(month: String, metric: String) -> Key? {
        guard let index = metricPositions[metric] else { return nil }
        if month.count == 7, let first = CivilDate(iso8601: month + "-01") {
            return Key(month: first.year * 12 + first.month - 1, metric: index)
        }
        return RetailCalendar.Month(label: month).map { Key(month: $0.year * 12 + $0.number - 1, metric: index) }
    }

    private static let metricPositions = Dictionary(
        MetricDefinition.all.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { first, _ in first })
}

/// Where a store's target for a month comes from (SPEC section 7's merge order).
public enum TargetSource: String, Sendable {
    /// The store's daily targets for the month.
    case daily
    /// The store's own monthly target.
    case store
    /// The `global` per-store default.
    case global
}

/// One (store, month part) piece of an additive target: where it came from, the days it
/// counts (daily targets in the part, or the part's calendar days), and the amount.
struct TargetComponent {
    let source: TargetSource
    let days: Int
    let amount: Double
}

/// One store's merged targets (see `TargetBook`).
struct StoreTargets {
    let own: [TargetBook.Key: Double]
    let global: [TargetBook.Key: Double]
    let daily: [TargetBook.Key: [(date: CivilDate, target: Double)]]

    /// The store's monthly target, else the global default.
    func monthlyTarget(_ key: TargetBook.Key) -> Double? { monthlySource(key)?.target }

    /// The store's monthly target and where it came from.
    func monthlySource(_ key: TargetBook.Key) -> (source: TargetSource, target: Double)? {
        if let target = own[key] { return (.store, target) }
        return global[key].map { (.global, $0) }
    }

    /// An additive metric's target over part of a goal month.
    func additiveTarget(_ key: TargetBook.Key, part: GoalMonthPart) -> Double? {
        additiveComponent(key, part: part)?.amount
    }

    /// An additive metric's target over part of a goal month, with its source: the sum of the
    /// store's daily targets on those days when the month has daily targets, else the monthly
    /// target prorated by the days of the month (calendar or fiscal) the part covers.
    func additiveComponent(_ key: TargetBook.Key, part: GoalMonthPart) -> TargetComponent? {
        if let days = daily[key] {
            let inPart = days.filter { part.part.contains($0.date) }
            return TargetComponent(source: .daily, days: inPart.count, amount: inPart.map(\.target).reduce(0, +))
        }
        guard let monthly = monthlySource(key) else { return nil }
        return TargetComponent(
            source: monthly.source, days: part.part.days,
            amount: monthly.target * Double(part.part.days) / Double(part.month.days))
    }
}

extension KPIEngine {
    /// What to tell a person whose goals name months of the other calendar, which no target
    /// reads (`349 goals are calendar months, but the calendar is nrf-454: …`); `nil` when none do.
    public func goalsOfTheOtherCalendar() throws -> String? {
        let counts = try warehouse.goalMonthKinds()
        switch calendar.kind {
        case .gregorian where counts.fiscal > 0:
            return
                "\(counts.fiscal) goal\(counts.fiscal == 1 ? " is a fiscal month" : "s are fiscal months") (FY2025-M04)"
                + ", but the calendar is gregorian: no target uses them; import goals by calendar month (YYYY-MM)"
        case .retail(let retail) where counts.calendar > 0:
            return
                "\(counts.calendar) goal\(counts.calendar == 1 ? " is a calendar month" : "s are calendar months") (YYYY-MM)"
                + ", but the calendar is \(retail.pattern.rawValue): no target uses them; import fiscal-period goals (FY2025-M04)"
        default:
            return nil
        }
    }
}
