import KPI

/// The sentence a review's summary opens with (SPEC section 20): how its top scope's sales stand
/// against target and last year, from the numbers its cards show.
enum Headline {
    /// `Region East is 10.4 % ahead of target and 6.1 % above last year, quarter to date`;
    /// `Region East: no data, quarter to date` when the scope's sales feed has none.
    static func sentence(_ scope: ScopeValues) -> String? {
        guard let period = scope.periods.last, let sales = period.metrics.first else { return nil }
        let when = period.isRunning ? "quarter to date" : "in \(period.label)"
        if sales.hasNoData { return "\(scope.title): \(NumberText.noData), \(when)" }
        let target = clause(
            sales.pctToTarget, ahead: "ahead of target", behind: "behind target",
            level: "on target", missing: "has no target")
        let lastYear = clause(
            sales.pctVsLY, ahead: "above last year", behind: "below last year",
            level: "level with last year", missing: "has no last year")
        let second = target.hasPrefix("is ") && lastYear.hasPrefix("is ") ? String(lastYear.dropFirst(3)) : lastYear
        return "\(scope.title) \(target) and \(second), \(when)"
    }

    /// `is 10.4 % ahead of target`, `is on target` (a change that rounds to zero), or `missing`.
    private static func clause(
        _ change: Double?, ahead: String, behind: String, level: String, missing: String
    ) -> String {
        guard let change, change.isFinite else { return missing }
        guard (abs(change) * 1000).rounded() != 0 else { return "is \(level)" }
        let points = NumberText.number(abs(change) * 100, decimals: 1)
        return "is \(points) % \(change > 0 ? ahead : behind)"
    }
}
