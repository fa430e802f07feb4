import CivilCalendar
import Warehouse

/// What `ddkpi explain` asks (SPEC section 17): one metric of one scope over one period.
public struct ExplainRequest: Sendable {
    /// The period: a to-date period of `kpi`, or the review's quarter or one of its months.
    public enum Period: Sendable {
        /// `WTD`, `MTD`, `QTD` or `YTD` as of a day.
        case toDate(asOf: CivilDate, label: String)
        /// The quarter, or the month `YYYY-MM` of it.
        case review(quarter: FiscalQuarter, month: String?)
    }

    public var metric: String
    /// One store (`.stores` with one code), one region, or `.all` (the company).
    public var filter: ScopeFilter
    public var period: Period
    /// Explain the LY value instead of the actual.
    public var lastYear: Bool

    public init(metric: String, filter: ScopeFilter, period: Period, lastYear: Bool) {
        self.metric = metric
        self.filter = filter
        self.period = period
        self.lastYear = lastYear
    }
}

/// A (store, month part) piece of a target: where it came from, the days it counts, and its
/// amount; a ratio's piece is its monthly target times its weight (the part's actual
/// denominator), and the target is Σ amount ÷ Σ weight.
public struct TargetPart: Sendable, Equatable {
    public var store: String
    public var month: String
    public var source: TargetSource
    public var days: Int
    public var amount: Double
    /// A ratio's weight; `nil` for an additive metric.
    public var weight: Double?
    /// A ratio's monthly target (`amount` is it times `weight`); `nil` for an additive metric.
    public var monthlyTarget: Double?
}

/// Why a KPI value is what it is (SPEC section 17): the formula, its exact components, the
/// value `kpi`/`review` print, and the target's parts. The contributing rows are streamed from
/// the warehouse (`Warehouse.contributingRows`) for `stores` and `range`.
public struct Explanation: Sendable {
    public var metric: MetricDefinition
    /// `08`, `region:East` or `ALL`.
    public var scope: String
    public var title: String
    /// `MTD`, `2025-05`, `2025Q2`…
    public var period: String
    /// The days explained (last year's, with `lastYear`).
    public var range: DateRange
    public var lastYear: Bool
    /// The value exactly as `kpi --format json` prints it as `actual` (or `ly`).
    public var value: Double?
    public var formula: String
    public var components: [(measure: MeasureName, value: Int128)]
    /// The components as the metric reads them (a ratio's over the rows that report its parts),
    /// for `Warehouse.contributingRows`.
    public var read: [ReadMeasure]
    /// The components no row of the scope and range reports (their counts unknown), which
    /// print as unknown rather than 0.
    public var unknown: Set<MeasureName> = []
    /// The scope's stores, whose rows contribute.
    public var stores: [String]
    /// The whole months the rollups served (`YYYY-MM`).
    public var servedByRollups: [String]
    /// The merged target (`nil` for LY, or when a part has none).
    public var target: Double?
    /// `value / target − 1`, as `kpi` prints it (`nil` for LY or without a target).
    public var pctToTarget: Double?
    /// Pace to goal: where the to-date value lands at the period's end (SPEC section 11; `nil`
    /// for LY, ratios and the review's periods).
    public var projection: Projection?
    public var parts: [TargetPart]
}

extension KPIEngine {
    /// Explains one metric of one scope over one period.
    public func explain(_ request: ExplainRequest) throws -> Explanation {
        guard let metric = MetricDefinition.named(request.metric),
            let index = MetricDefinition.all.firstIndex(where: { $0.key == metric.key })
        else {
            let known = MetricDefinition.all.map { "\($0.key) (\($0.label))" }
            throw KPIError("unknown metric \"\(request.metric)\"; known metrics: \(known.joined(separator: ", "))")
        }
        let report: KPIReport
        let label: String
        switch request.period {
        case .toDate(let asOf, let period):
            report = try kpi(asOf: asOf, filter: request.filter)
            label = period
        case .review(let quarter, let month):
            report = try review(quarter: quarter, filter: request.filter)
            label = month ?? quarter.label
        }
        let scopes = try Scope.resolve(
            request.filter, stores: try warehouse.stores(), reader: try warehouse.readerScope())
        guard let scope = request.filter.isStore ? scopes.first : scopes.last,
            let values = report.scopes.first(where: { $0.scope == scope.id.description }),
            let period = values.periods.first(where: { $0.label == label })
        else { throw KPIError("no period \(label) in this report") }
        let value = period.metrics[index]
        guard let range = request.lastYear ? period.lastYear : period.range else {
            throw KPIError("\(label) has no last-year period to explain (a 53rd week has no LY)")
        }
        let goalMonths = calendar.goalMonths(of: range)
        let measures = try warehouse.measures(parts: goalMonths.map { ($0.label, $0.part) })
        let members = Set(scope.stores)
        let total = measures.filter { members.contains($0.key.store) }.values.reduce(MeasureSums(), +)
        let read = Self.read(by: metric)
        var explanation = Explanation(
            metric: metric, scope: scope.id.description, title: scope.title, period: label, range: range,
            lastYear: request.lastYear, value: request.lastYear ? value.ly : value.actual,
            formula: Self.formula(metric),
            components: read.map { ($0.name, total[keyPath: $0.path]) }, read: read, stores: scope.stores,
            servedByRollups: warehouse.monthsServedByRollups(from: range.start, through: range.end),
            target: request.lastYear ? nil : value.target,
            pctToTarget: request.lastYear ? nil : value.pctToTarget,
            projection: request.lastYear ? nil : value.projection,
            parts: request.lastYear
                ? [] : try targetParts(metric, stores: scope.stores, months: goalMonths, measures: measures))
        explanation.unknown = try warehouse.unreported(read, from: range.start, through: range.end, stores: members)
        return explanation
    }

    /// The measures a metric's formula reads, numerator first.
    static func measures(of metric: MetricDefinition) -> [MeasureName] { read(by: metric).map(\.name) }

    /// The measures a metric's formula reads, numerator first, each with the sum it reads.
    static func read(by metric: MetricDefinition) -> [ReadMeasure] {
        let paths: [MetricDefinition.Measure]
        switch metric.formula {
        case .sum(let path, _): paths = [path]
        case .ratio(let numerator, let denominator, _): paths = [numerator, denominator]
        }
        return paths.compactMap { path in MeasureName(path: path).map { ReadMeasure(name: $0, path: path) } }
    }

    /// The formula of section 7 in the components' names: `avgAds = Σ salesCents ÷ (Σ transactions × 100)`.
    static func formula(_ metric: MetricDefinition) -> String {
        let names = measures(of: metric).map(\.rawValue)
        switch metric.formula {
        case .sum(_, let unit):
            return "\(metric.key) = Σ \(names[0])" + (unit == 1 ? "" : " ÷ \(unit)")
        case .ratio(_, _, let unit):
            let denominator = unit == 1 ? "Σ \(names[1])" : "(Σ \(names[1]) × \(unit))"
            return "\(metric.key) = Σ \(names[0]) ÷ \(denominator)"
        }
    }

    /// The target's (store, month part) pieces, in the engine's order: store by store, month by month.
    private func targetParts(
        _ metric: MetricDefinition, stores: [String], months: [GoalMonthPart], measures: [StoreMonth: MeasureSums]
    ) throws -> [TargetPart] {
        let book = TargetBook(goals: try warehouse.goals(months: Set(months.map(\.label))))
        var parts: [TargetPart] = []
        for store in stores {
            let targets = book.store(store)
            for goalMonth in months {
                let (month, part) = (goalMonth.label, goalMonth.part)
                guard let key = TargetBook.key(month: month, metric: metric.key) else { continue }
                if let denominator = metric.formula.denominator {
                    let weight = MetricDefinition.double(
                        measures[StoreMonth(store: store, month: month)]?[keyPath: denominator] ?? 0)
                    guard weight != 0, let monthly = targets.monthlySource(key) else { continue }
                    parts.append(
                        TargetPart(
                            store: store, month: month, source: monthly.source, days: part.days,
                            amount: monthly.target * weight, weight: weight, monthlyTarget: monthly.target))
                } else if let component = targets.additiveComponent(key, part: goalMonth) {
                    parts.append(
                        TargetPart(
                            store: store, month: month, source: component.source, days: component.days,
                            amount: component.amount, weight: nil, monthlyTarget: nil))
                }
            }
        }
        return parts
    }
}

extension ScopeFilter {
    /// Whether the filter names stores (the first is the scope explained).
    var isStore: Bool {
        if case .stores = self { return true }
        return false
    }
}
