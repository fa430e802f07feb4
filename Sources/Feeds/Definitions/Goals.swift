import CivilCalendar
import SheetStream

extension FeedID {
    public static let goals = FeedID(declaring: "goals")
}

extension FeedCatalog {
    /// Monthly and daily targets (`ddkpi goals import`).
    static let goals = FeedDefinition(
        id: .goals,
        fields: [
            .period: ["Period", "Month"], .scope: ["Scope", "Store"], .metric: ["Metric", "KPI"],
            .target: ["Target", "Goal"],
            .date: ["Date", "Day"],
        ],
        layouts: [[.field(.period), .field(.scope), .field(.metric), .field(.target)]], rows: .goals)
}

/// One target: a month's (or with `date`, one day's) target for a metric, for one store or `global`.
public struct GoalRecord: Equatable, Sendable {
    /// `YYYY-MM`, or a fiscal month `FY2025-M04` under a retail calendar (`GoalMonths`).
    public var period: String
    /// `global` or a store code.
    public var scope: String
    /// A metric's JSON key (`totalSales`, `upt`, …).
    public var metric: String
    public var target: Double
    /// The day of a daily target, inside `period`.
    public var date: CivilDate?

    public init(period: String, scope: String, metric: String, target: Double, date: CivilDate?) {
        self.period = period
        self.scope = scope
        self.metric = metric
        self.target = target
        self.date = date
    }

    /// The metric keys goals may name (SPEC section 7).
    public static let metrics: Set<String> = [
        "totalSales", "avgAds", "upt", "ccpPct", "gpPct", "creditApps", "birdeyeReviews", "guestCapture",
        "outboundCalls",
    ]
}

extension FeedRowMapper {
    /// A month's (or a day's) target.
    func goalRecord(_ fields: inout RowFields) -> FeedRecord? {
        let goalMonths = reader.options.goalMonths
        guard let (period, month) = fields.required(.period, { Self.period($0, in: goalMonths) }),
            let scope = fields.required(.scope, goalScope), let metric = fields.required(.metric, Self.metric),
            let target = fields.required(.target, ValueNormalizer.number),
            let day = fields.optional(.date, { cache.date($0) })
        else { return nil }
        if let day, !month.contains(day) {
            fields.failRow("has date \(day.iso8601) outside its period \(period)")
            return nil
        }
        return .goal(GoalRecord(period: period, scope: scope, metric: metric, target: target, date: day))
    }

    func goalScope(_ cell: Cell) -> Result<String, NormalizationFailure> {
        if let text = TextNormalizer.text(of: cell), text.lowercased() == "global" { return .success("global") }
        return reader.directory.resolve(cell)
    }

    /// A goal's period as `goalMonths` names months, with its days.
    static func period(_ cell: Cell, in goalMonths: GoalMonths) -> Result<
        (String, DateRange), NormalizationFailure
    > {
        let text: String?
        if case .date(let value) = cell {
            text = value.civil.iso8601Month
        } else {
            text = TextNormalizer.text(of: cell)
        }
        guard let text else { return .failure(.missing) }
        guard let month = goalMonths.range(of: text) else {
            return .failure(.invalid("is not a goal period: expected \(goalMonths.expected)"))
        }
        return .success((text.uppercased(), month))
    }

    static func metric(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
        guard GoalRecord.metrics.contains(text) else {
            return .failure(
                .invalid("is not a metric (expected one of \(GoalRecord.metrics.sorted().joined(separator: ", ")))"))
        }
        return .success(text)
    }
}
