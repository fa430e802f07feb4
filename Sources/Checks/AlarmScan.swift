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
        let halves = [0..<(stores.count / 2), (stores.count / 2)..<stores.count]
        let logs = Self.inParallel(halves) { range in stores[range].map(OutlierCheck.logarithms) }.flatMap { $0 }
        let chain = ChainIndex(stores: stores, logs: logs, threshold: settings.z)
        let perStore = Self.inParallel(halves) { range in
            range.flatMap { index in storeAlarms(stores[index], logs: logs[index], chain: chain) }
        }
        return (DateShiftCheck.alarms(stores) + perStore.flatMap { $0 }).sorted(by: Alarm.reportOrder)
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
