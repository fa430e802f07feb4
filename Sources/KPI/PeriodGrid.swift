import CivilCalendar
import Warehouse

/// Store codes numbered 0…n−1 in code order, so per-store values live in arrays.
struct StoreIndex {
    let codes: [String]
    private let positions: [String: Int]

    init(codes: [String]) {
        self.codes = codes.sorted()
        positions = Dictionary(self.codes.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    var count: Int { codes.count }

    /// The positions of `codes` (unknown codes are left out), in the order given.
    func indices(of codes: [String]) -> [Int] { codes.compactMap { positions[$0] } }

    func index(of code: String) -> Int? { positions[code] }
}

/// One period of a report, prepared once for every scope: each store's summed measures (this
/// period and LY) and each store's target components per metric and month part.
///
/// A scope's values fold its stores' entries in store order and, within a store, month order,
/// the same order whatever the scope, so a region's or the company's target is computed exactly
/// as one sum over its (store, month) components (SPEC section 7).
struct PeriodGrid {
    /// A (store, month part) piece of a target: an additive metric's target for the part, or a
    /// ratio metric's monthly target with the part's actual denominator as its weight.
    struct Component {
        var target: Double?
        var weight: Double
    }

    private let storeCount: Int
    private let actuals: [MeasureSums]
    /// `nil` when the period has no LY (a retail 53rd week).
    private let lastYearActuals: [MeasureSums]?
    /// Per metric: `storeCount × parts` components, store-major.
    private let components: [[Component]]
    private let partCount: Int
    /// Per additive metric: the whole period's components (`nil` for ratios, or without a whole period).
    private let fullComponents: [[Component]?]
    private let fullPartCount: Int

    /// A grid over the goal-month `parts` of a period (and of its whole period `full`, for
    /// projections): `current` holds, per store position of `stores`, the measures of each part
    /// in order, `previous` each store's LY measures (`nil` when the period has no LY).
    init(
        parts: [GoalMonthPart], full: [GoalMonthPart]?, stores: StoreIndex, current monthMeasures: [[MeasureSums]],
        previous: [MeasureSums]?, targets: TargetBook
    ) {
        storeCount = stores.count
        actuals = monthMeasures.map { $0.reduce(MeasureSums(), +) }
        lastYearActuals = previous
        partCount = parts.count
        let storeTargets = stores.codes.map(targets.store)
        components = MetricDefinition.all.enumerated().map { metricIndex, metric in
            let keys = parts.map { TargetBook.key(month: $0.label, metric: metric.key) }
            return storeTargets.enumerated().flatMap { storeIndex, book in
                zip(parts, keys).enumerated().map { partIndex, element -> Component in
                    let (part, key) = element
                    if let denominator = metric.formula.denominator {
                        let weight = Self.double(monthMeasures[storeIndex][partIndex][keyPath: denominator])
                        return Component(target: weight == 0 ? nil : key.flatMap(book.monthlyTarget), weight: weight)
                    }
                    return Component(target: key.flatMap { book.additiveTarget($0, part: part) }, weight: 1)
                }
            }
        }
        let fullParts = full ?? []
        fullPartCount = fullParts.count
        fullComponents = MetricDefinition.all.map { metric in
            guard full != nil, metric.isAdditive else { return nil }
            let keys = fullParts.map { TargetBook.key(month: $0.label, metric: metric.key) }
            return storeTargets.flatMap { book in
                zip(fullParts, keys).map { part, key in
                    Component(target: key.flatMap { book.additiveTarget($0, part: part) }, weight: 1)
                }
            }
        }
    }

    /// The summed measures of `members` (store positions).
    func actual(_ members: [Int]) -> MeasureSums { members.reduce(MeasureSums()) { $0 + actuals[$1] } }

    /// The summed LY measures of `members`; `nil` when the period has no LY.
    func lastYearActual(_ members: [Int]) -> MeasureSums? {
        lastYearActuals.map { sums in members.reduce(MeasureSums()) { $0 + sums[$1] } }
    }

    /// The target of metric `index` over the period for `members`: additive targets add up over
    /// stores and month parts (none when any part has none); a ratio's target is the monthly
    /// targets weighted by each part's actual denominator (none when a weighted part has none,
    /// or when the weights sum to 0).
    func target(metric index: Int, _ members: [Int]) -> Double? {
        Self.fold(
            components[index], parts: partCount, members: members, additive: MetricDefinition.all[index].isAdditive)
    }

    /// An additive metric's target over the whole period (for projections).
    func fullTarget(metric index: Int, _ members: [Int]) -> Double? {
        fullComponents[index].flatMap { Self.fold($0, parts: fullPartCount, members: members, additive: true) }
    }

    private static func fold(_ components: [Component], parts: Int, members: [Int], additive: Bool) -> Double? {
        var total = 0.0
        var weights = 0.0
        // The common case, one target for every weighted component (a global default), is that
        // target exactly: (t × w) / w need not give back t in binary.
        var sameTarget: Double??
        for store in members {
            for component in components[(store * parts)..<(store * parts + parts)] {
                if additive {
                    guard let target = component.target else { return nil }
                    total += target
                } else {
                    guard component.weight != 0 else { continue }
                    guard let target = component.target else { return nil }
                    total += target * component.weight
                    weights += component.weight
                    sameTarget = (sameTarget == nil || sameTarget == .some(target)) ? .some(target) : .some(nil)
                }
            }
        }
        if additive { return total }
        guard weights != 0 else { return nil }
        return sameTarget.flatMap { $0 } ?? total / weights
    }

    private static func double(_ value: Int128) -> Double { MetricDefinition.double(value) }
}
