/// Runs every check of SPEC section 18 over the stores' series and lists the alarms in report
/// order (store, date, kind). Pure: the warehouse loads the series, the caller names files.
///
/// Scores, by kind: `outlier` the robust z-score; `zero-day` how many of the previous 8 same
/// weekdays had sales; `repeated-period` the days of the span; `date-shift` the share of the
/// run's keys equal to the earlier rows; `reconcile` the difference over the tolerance;
/// `implausible` the value over its limit (1 for a negative count or percent).
public struct AlarmScan: Sendable {
    public var settings: CheckSettings

    public init(settings: CheckSettings) { self.settings = settings }

    /// Every alarm on the judged days of `stores`.
    public func alarms(_ stores: [StoreSeries]) -> [Alarm] {
        var alarms = DateShiftCheck.alarms(stores)
        let logs = stores.map(OutlierCheck.logarithms)
        let chain = ChainIndex(stores: stores, logs: logs, threshold: settings.z)
        for (series, logs) in zip(stores, logs) {
            alarms += OutlierCheck.alarms(series, logs: logs, chain: chain, settings: settings)
            alarms += ZeroDayCheck.alarms(series, settings: settings)
            alarms += RepeatedPeriodCheck.alarms(series)
            alarms += ReconcileCheck.alarms(series, settings: settings)
            alarms += ImplausibleCheck.alarms(series)
        }
        return alarms.sorted(by: Alarm.reportOrder)
    }
}
