import Threads

/// Runs every check of SPEC section 18 over the stores' series and lists the alarms in report
/// order (store, date, kind). Pure: the warehouse loads the series, the caller names files.
///
/// Scores, by kind: `outlier` the robust z-score; `zero-day` how many of the previous 8 same
/// weekdays had sales; `repeated-period` the days of the span; `date-shift` the share of the
/// run's keys equal to the earlier rows; `reconcile` the difference over the tolerance;
/// `implausible` the value over its limit (1 for a negative count or percent).
///
/// The per-store work runs on two threads (a store's checks read only its own series and the
/// chain's index), each half of the stores on one.
public struct AlarmScan: Sendable {
    public var settings: CheckSettings

    public init(settings: CheckSettings) { self.settings = settings }

    /// Every alarm on the judged days of `stores`.
    public func alarms(_ stores: [StoreSeries]) -> [Alarm] {
        let findings = scan(stores, owning: Int.min...Int.max)
        return (findings.alarms + findings.dateShifts.alarms()).sorted(by: Alarm.reportOrder)
    }

    /// What one chunk of days found: the alarms it owns (a span's by its first day) but date
    /// shifts, and the date-shift tally of the keys it owns, which adds up across chunks.
    public struct Findings: Sendable {
        public var alarms: [Alarm]
        public var dateShifts: DateShiftTally
    }

    /// The alarms of `stores` whose day, or whose span's first day, lies in `owning` (days since
    /// the epoch), and the date-shift tally of the keys in it: a long check is scanned in chunks
    /// of days, each loaded with the history it needs and a look ahead, so a span that crosses
    /// into the next chunk is still seen whole once.
    public func scan(_ stores: [StoreSeries], owning: ClosedRange<Int>) -> Findings {
        let halves = [0..<(stores.count / 2), (stores.count / 2)..<stores.count]
        let logs = Self.inParallel(halves) { range in stores[range].map(OutlierCheck.logarithms) }.flatMap { $0 }
        let chain = ChainIndex(stores: stores, logs: logs, threshold: settings.z)
        let perStore = Self.inParallel(halves) { range in
            range.flatMap { index in storeAlarms(stores[index], logs: logs[index], chain: chain) }
        }
        var dateShifts = DateShiftTally()
        for series in stores {
            let count = series.sales.count
            let start = owning.lowerBound <= series.first ? 0 : min(owning.lowerBound - series.first, count)
            let end =
                owning.upperBound >= series.first + count - 1 ? count : max(owning.upperBound - series.first + 1, start)
            dateShifts.add(series, positions: start..<end)
        }
        let owned = perStore.flatMap { $0 }.filter { owning.contains($0.days.start.daysSinceEpoch) }
        return Findings(alarms: owned, dateShifts: dateShifts)
    }

    /// Every check that reads one store's series alone.
    private func storeAlarms(_ series: StoreSeries, logs: [[Double]], chain: ChainIndex) -> [Alarm] {
        OutlierCheck.alarms(series, logs: logs, chain: chain, settings: settings)
            + ZeroDayCheck.alarms(series, settings: settings) + RepeatedPeriodCheck.alarms(series)
            + ReconcileCheck.alarms(series, settings: settings) + ImplausibleCheck.alarms(series)
    }

    /// `work` of each part, the last part on this thread and the others on threads of their own
    /// (on this one too, when a thread cannot be started), in the parts' order.
    private static func inParallel<Part, Value>(_ parts: [Part], _ work: @escaping (Part) -> Value) -> [Value] {
        guard let last = parts.last else { return [] }
        let others = parts.dropLast().map { part in (part, try? BackgroundTask { work(part) }) }
        let here = work(last)
        return others.map { part, task in (try? task?.value()) ?? work(part) } + [here]
    }
}
