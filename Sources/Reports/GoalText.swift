import KPI

/// What it takes to hit a period's target, in words (SPEC section 22).
enum GoalText {
    /// `Need $N in D days: $P a day (so far $S a day)` while the period runs short of its target,
    /// `Target reached: $A ahead` once the actual reaches it, or `Missed by $M` for a period over
    /// and short; `nil` without an actual or a target.
    static func whatItTakes(_ value: MetricValue, _ format: MetricFormat) -> String? {
        guard let actual = value.actual, let target = value.full?.target ?? value.target else { return nil }
        if actual >= target { return "Target reached: \(NumberText.formatted(actual - target, format)) ahead" }
        let needed = target - actual
        guard let full = value.full, full.remainingDays > 0, let perDay = full.neededPerDay else {
            return "Missed by \(NumberText.formatted(needed, format))"
        }
        let days = full.remainingDays == 1 ? "1 day" : "\(full.remainingDays) days"
        let soFar = full.actualPerDay.map { " (so far \(NumberText.formatted($0, format)) a day)" } ?? ""
        return "Need \(NumberText.formatted(needed, format)) in \(days): \(NumberText.formatted(perDay, format)) a day"
            + soFar
    }

    /// A period's label, with its last day (`MM-DD`) when it is cut before its end (`YYYY-MM to MM-DD`).
    static func periodLabel(_ period: PeriodValues) -> String {
        period.isRunning ? "\(period.label) to \(String(period.range.end.iso8601.dropFirst(5)))" : period.label
    }
}
