import CivilCalendar
import Foundation

/// The checks of SPEC section 18 over sales-audit rows that come day by day: a store's history,
/// then a file's rows as the ingest writes them. It finds what `AlarmScan` finds over the same
/// rows held as one series from `firstDay` (sales-audit alone: no associate sales, events or
/// merch), judging each store's days from its first row on or after `judgedFrom` to its last,
/// while it keeps per store only the days the checks reach back to (a year and a week).
///
/// Each day is checked once, when the rows of a later day come (or at `finish`): the chain's
/// level that day, each store's outlier scores against sorted windows of its same weekdays that
/// are kept up to date day by day (no gathering and sorting per day), its runs of days equal to
/// earlier ones, its zero days, implausible rows and date-shift keys.
public final class StreamingScan {
    public let settings: CheckSettings
    /// The first day of the series (days since the epoch): no reference reaches before it.
    public let firstDay: Int
    /// The first day an alarm may name (days since the epoch): the rows before it are history.
    public let judgedFrom: Int

    private var stores: [StreamedStore] = []
    private var slotsByCode: [String: Int] = [:]
    /// The slot of the last row's store: rows come in the same order of stores day after day.
    private var lastSlot = -1
    /// The day whose rows are being gathered.
    private var day: Int?
    /// Per sales measure, the chain's level each day (NaN where fewer than 5 stores have a value).
    private var chainLevels = MeasureRings(measures: OutlierCheck.salesMeasures.count)
    private var references = ReferenceDays()
    /// The date-shift keys of the judged rows, by run.
    private var dateShifts = DateShiftTally()
    /// Scratch buffers: the stores' logarithms of one day, and a sorted window being judged.
    private var levels: [Double] = []
    private var sorted: [Double] = []

    /// A scan of the series from `firstDay` whose days from `judgedFrom` on are judged.
    public init(settings: CheckSettings, firstDay: Int, judgedFrom: Int) {
        self.settings = settings
        self.firstDay = firstDay
        self.judgedFrom = judgedFrom
    }

    /// Takes store `code`'s row of day `day` (days since the epoch). Rows come day by day; a
    /// later row of the same store-day replaces the earlier one. Returns `false`, taking
    /// nothing, for a row of a day before the last row's.
    public func add(store code: String, day: Int, _ row: SalesDay) -> Bool {
        if let current = self.day {
            guard day >= current else { return false }
            for earlier in current..<day { close(earlier) }
        }
        self.day = day
        let store = stores[slot(code)]
        if day >= judgedFrom {
            store.judged = (store.judged?.lowerBound ?? day)...day
            // The days without a row before this one lie inside the store's judged days.
            store.alarms += store.missing
            store.missing.removeAll()
        }
        store.today = row
        return true
    }

    /// Per store with rows on judged days, the first and last of them.
    public var judgedDays: [String: ClosedRange<Int>] {
        var days: [String: ClosedRange<Int>] = [:]
        for store in stores { if let judged = store.judged { days[store.code] = judged } }
        return days
    }

    /// Checks the last day and returns every alarm, in report order (store, date, kind).
    public func finish() -> [Alarm] {
        guard let last = day else { return [] }
        close(last)
        day = nil
        var alarms: [Alarm] = []
        for store in stores {
            alarms += store.alarms
            store.stretch?.record(code: store.code, in: &dateShifts)
            guard let judged = store.judged else { continue }
            for (position, tracker) in store.trackers.enumerated() {
                var ending = tracker
                if let span = ending.end(before: last + 1) { store.spans[position].append(span) }
            }
            alarms += RepeatedPeriodCheck.alarms(store.spans.flatMap { $0 }, store: store.code) {
                $0.overlaps(judged)
            }
        }
        return (alarms + dateShifts.alarms()).sorted(by: Alarm.reportOrder)
    }

    /// The slot of store `code`, added when new.
    private func slot(_ code: String) -> Int {
        let next = lastSlot + 1 < stores.count ? lastSlot + 1 : 0
        if next < stores.count, stores[next].code == code {
            lastSlot = next
        } else if let known = slotsByCode[code] {
            lastSlot = known
        } else {
            stores.append(StreamedStore(code: code, measures: OutlierCheck.salesMeasures.count))
            lastSlot = stores.count - 1
            slotsByCode[code] = lastSlot
        }
        return lastSlot
    }

    /// Checks day `day` with the rows gathered for it (none for a day without rows).
    private func close(_ day: Int) {
        for store in stores { settle(store, day) }
        scoreOutliers(day)
        for store in stores { store.today = nil }
    }

    /// Puts a store's row of `day` in its history and runs the checks of single rows and runs.
    private func settle(_ store: StreamedStore, _ day: Int) {
        let row = store.today
        store[row: day] = row
        for position in store.trackers.indices {
            let lag = store.trackers[position].lag
            let earlier = day - lag >= firstDay ? store[row: day - lag] : nil
            if let span = store.trackers[position].step(day: day, row: row, earlier: earlier) {
                store.spans[position].append(span)
            }
        }
        guard day >= judgedFrom, store.judged != nil else { return }
        let zeroDay = ZeroDayCheck.alarm(store: store.code, day: day, row: row, settings: settings) { weeks in
            day - 7 * weeks >= firstDay ? store[row: day - 7 * weeks] : nil
        }
        guard let row else {
            // A day without a row after the store's last row so far: judged once a later row comes.
            if let zeroDay { store.missing.append(zeroDay) }
            return
        }
        if let zeroDay { store.alarms.append(zeroDay) }
        if let alarm = ImplausibleCheck.alarm(store: store.code, day: day, row: row) { store.alarms.append(alarm) }
        guard row.run != 0 else { return }
        if store.stretch?.run != row.run {
            store.stretch?.record(code: store.code, in: &dateShifts)
            store.stretch = DateShiftTally.Stretch(run: row.run)
        }
        store.stretch?.add(day: day, row: row, judged: true) { lag in
            day - lag >= firstDay ? store[row: day - lag] : nil
        }
    }

    /// The outlier check of `day` (`OutlierCheck`): per measure, the chain's level, then each
    /// store's value relative to it against the same weekdays before, and the windows moved on.
    private func scoreOutliers(_ day: Int) {
        let weekday = ((day % 7) + 7) % 7
        var trips: [Int: [OutlierCheck.Trip]] = [:]
        for (measure, definition) in OutlierCheck.salesMeasures.enumerated() {
            guard let read = definition.sales else { continue }
            levels.removeAll(keepingCapacity: true)
            for store in stores {
                var value = Double.nan
                if let row = store.today, case let reading = read(row), reading > 0 { value = log(Double(reading)) }
                store.logs[measure, day] = value
                if !value.isNaN { levels.append(value) }
            }
            let level =
                levels.count >= ChainIndex.minimumStores ? RobustBaseline.median(selecting: &levels) : .nan
            chainLevels[measure, day] = level
            var offset = level
            if !level.isNaN,
                case .unusual = references.judge(
                    chainLevels.ring(measure), at: day, earliest: firstDay, threshold: settings.z)
            {
                offset = .nan
            }
            for (slot, store) in stores.enumerated() {
                let value = store.logs[measure, day]
                let relative = value - offset
                store.relative[measure, day] = relative
                if !value.isNaN, day >= judgedFrom, let row = store.today,
                    let found = OutlierCheck.unusual(
                        offset: offset,
                        relative: { judgeRelative(store, measure: measure, weekday: weekday, day: day) },
                        own: {
                            references.judge(
                                store.logs.ring(measure), at: day, earliest: firstDay, threshold: settings.z)
                        })
                {
                    trips[slot, default: []].append(
                        OutlierCheck.Trip(
                            measure: definition, value: read(row), expected: found.expected, score: found.score,
                            run: row.run))
                }
                let leaving = day - 7 * ReferenceDays.weeks
                store.weekdays.move(
                    measure: measure, weekday: weekday,
                    removing: leaving >= firstDay ? store.relative[measure, leaving] : .nan, adding: relative)
            }
        }
        guard !trips.isEmpty else { return }
        let date = CivilDate(daysSinceEpoch: day)
        for (slot, found) in trips {
            if let alarm = OutlierCheck.alarm(found, store: stores[slot].code, date: date) {
                stores[slot].alarms.append(alarm)
            }
        }
    }

    /// A store's relative value on `day` against its same weekdays before (the kept window),
    /// or, when fewer than 5 of them have a value, as `ReferenceDays` gathers them.
    private func judgeRelative(_ store: StreamedStore, measure: Int, weekday: Int, day: Int)
        -> ReferenceDays.Judgement
    {
        let value = store.relative[measure, day]
        guard store.weekdays.count(measure: measure, weekday: weekday) >= RobustBaseline.minimumCount else {
            return references.judge(store.relative.ring(measure), at: day, earliest: firstDay, threshold: settings.z)
        }
        store.weekdays.copy(measure: measure, weekday: weekday, into: &sorted)
        return ReferenceDays.judge(value, sorted: &sorted, threshold: settings.z)
    }
}

/// What `StreamingScan` keeps of one store: its rows of the last 512 days, its measures'
/// logarithms (and relative to the chain) of the last 64, the sorted same-weekday windows, and
/// the state of the checks that run along the days.
private final class StreamedStore {
    let code: String
    /// Rows by day (`day & 511`): the year and a week the date-shift and repeated-period checks reach back.
    private var sales = [SalesDay?](repeating: nil, count: 512)
    var logs: MeasureRings
    var relative: MeasureRings
    var weekdays: WeekdayWindows
    /// The row of the day being gathered.
    var today: SalesDay?
    /// The first and last day of its rows on judged days.
    var judged: ClosedRange<Int>?
    var trackers = RepeatedPeriodCheck.lags.map(RepeatedPeriodCheck.Tracker.init)
    /// Per distance, the spans of equal days found, in order.
    var spans = [[RepeatedPeriodCheck.Span]](repeating: [], count: RepeatedPeriodCheck.lags.count)
    /// Zero-day alarms of days without a row after its last row so far: they count once a later row comes.
    var missing: [Alarm] = []
    /// The date-shift keys of its rows' run.
    var stretch: DateShiftTally.Stretch?
    var alarms: [Alarm] = []

    init(code: String, measures: Int) {
        self.code = code
        logs = MeasureRings(measures: measures)
        relative = MeasureRings(measures: measures)
        weekdays = WeekdayWindows(measures: measures)
    }

    /// The row of `day` (days since the epoch), within 512 days of the last one set.
    subscript(row day: Int) -> SalesDay? {
        get { sales[day & 511] }
        set { sales[day & 511] = newValue }
    }
}

/// One value per measure and day for the last 64 days (8 weeks and a day's reach, rounded up),
/// NaN where there is none.
private struct MeasureRings {
    static let days = 64
    private var values: [Double]

    init(measures: Int) { values = Array(repeating: .nan, count: measures * Self.days) }

    subscript(measure: Int, day: Int) -> Double {
        get { values[measure * Self.days + (day & (Self.days - 1))] }
        set { values[measure * Self.days + (day & (Self.days - 1))] = newValue }
    }

    /// One measure's ring, as reference days read it.
    func ring(_ measure: Int) -> Ring { Ring(values: values, base: measure * Self.days) }

    struct Ring: DayValues {
        let values: [Double]
        let base: Int
        subscript(_ day: Int) -> Double { values[base + (day & (MeasureRings.days - 1))] }
    }
}

/// Per measure and weekday, the values of the same weekday in the last 8 weeks that have one,
/// sorted: the reference days of the next such weekday, moved on by one week each day.
private struct WeekdayWindows {
    private var values: [Double]
    private var counts: [Int]

    init(measures: Int) {
        values = Array(repeating: 0, count: measures * 7 * ReferenceDays.weeks)
        counts = Array(repeating: 0, count: measures * 7)
    }

    func count(measure: Int, weekday: Int) -> Int { counts[measure * 7 + weekday] }

    /// The window's values, sorted, into `buffer`.
    func copy(measure: Int, weekday: Int, into buffer: inout [Double]) {
        let window = measure * 7 + weekday
        let base = window * ReferenceDays.weeks
        buffer.removeAll(keepingCapacity: true)
        for index in 0..<counts[window] { buffer.append(values[base + index]) }
    }

    /// Takes `removing` (the value 8 weeks back; NaN for none) out of a window and puts `adding`
    /// (NaN for none) in, keeping it sorted.
    mutating func move(measure: Int, weekday: Int, removing: Double, adding: Double) {
        let window = measure * 7 + weekday
        let base = window * ReferenceDays.weeks
        var count = counts[window]
        if !removing.isNaN, let found = (base..<(base + count)).first(where: { values[$0] == removing }) {
            for index in found..<(base + count - 1) { values[index] = values[index + 1] }
            count -= 1
        }
        if !adding.isNaN, count < ReferenceDays.weeks {
            var slot = base + count
            while slot > base, values[slot - 1] > adding {
                values[slot] = values[slot - 1]
                slot -= 1
            }
            values[slot] = adding
            count += 1
        }
        counts[window] = count
    }
}
