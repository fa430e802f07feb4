import CivilCalendar
import Warehouse

extension ExplainRequest {
    /// A random request for an audit: any metric; one of `stores`, one of `regions` or the
    /// company; a to-date period as of a day in `days`, or one of `quarters` or a month of it;
    /// LY one time in three.
    public static func random(
        stores: [String], regions: [String], days: DateRange, quarters: [FiscalQuarter],
        using generator: inout some RandomNumberGenerator
    ) -> ExplainRequest {
        let metric = MetricDefinition.all.randomElement(using: &generator)?.key ?? "totalSales"
        let filter: ScopeFilter
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: filter = stores.randomElement(using: &generator).map { .stores([$0]) } ?? .all
        case 1: filter = regions.randomElement(using: &generator).map(ScopeFilter.region) ?? .all
        default: filter = .all
        }
        let period: ExplainRequest.Period
        if Bool.random(using: &generator), let quarter = quarters.randomElement(using: &generator) {
            let month = Int.random(in: 0...quarter.months.count, using: &generator)
            period = .review(quarter: quarter, month: month < quarter.months.count ? quarter.months[month].label : nil)
        } else {
            let day = days.start.adding(days: Int.random(in: 0..<max(days.days, 1), using: &generator))
            period = .toDate(asOf: day, label: ["WTD", "MTD", "QTD", "YTD"].randomElement(using: &generator) ?? "YTD")
        }
        return ExplainRequest(
            metric: metric, filter: filter, period: period, lastYear: Int.random(in: 0..<3, using: &generator) == 0)
    }
}

extension KPIEngine {
    /// What does not add up in `explanation` (empty when everything does): the contributing
    /// rows against the components, the components against the value, and the target's parts
    /// against the target (SPEC section 17). For tests and benchmarks.
    public func audit(_ explanation: Explanation) throws -> [String] {
        var summed: [MeasureName: Int128] = [:]
        try warehouse.contributingRows(
            explanation.read, from: explanation.range.start, through: explanation.range.end,
            stores: Set(explanation.stores)
        ) { row in
            for (measure, value) in row.values { summed[measure, default: 0] += value }
        }
        var problems: [String] = []
        var measures = MeasureSums()
        for component in explanation.components {
            // A narrowed sum given as its measure is itself: no row outside it in `measures`.
            measures[keyPath: component.measure.writablePath] = component.value
            let rows = summed[component.measure, default: 0]
            if rows != component.value {
                problems.append(
                    "\(component.measure.rawValue): the rows sum to \(rows), the component is \(component.value)")
            }
        }
        if explanation.metric.value(measures) != explanation.value {
            problems.append(
                "the components give \(String(describing: explanation.metric.value(measures))), the value is \(String(describing: explanation.value))"
            )
        }
        if let target = explanation.target, let merged = Self.mergedTarget(explanation), merged != target {
            problems.append("the parts give \(merged), the target is \(target)")
        }
        return problems
    }

    /// The target the parts give: their sum for an additive metric; for a ratio, the one
    /// monthly target when every part has the same, else Σ amount ÷ Σ weight (within 1e-12,
    /// as the engine sums in another grouping).
    private static func mergedTarget(_ explanation: Explanation) -> Double? {
        let parts = explanation.parts
        if explanation.metric.isAdditive { return parts.reduce(0) { $0 + $1.amount } }
        let targets = Set(parts.compactMap(\.monthlyTarget))
        if targets.count == 1 { return targets.first }
        let weights = parts.compactMap(\.weight).reduce(0, +)
        guard weights != 0, let target = explanation.target else { return nil }
        let merged = parts.reduce(0) { $0 + $1.amount } / weights
        return abs(merged - target) <= abs(target) * 1e-12 ? target : merged
    }
}
