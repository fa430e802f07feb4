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
public struct StreamingScan {
    public let settings: CheckSettings
    /// The first day of the series (days since the epoch): no reference reaches before it.
    public let firstDay: Int
    /// The first day an alarm may name (days since the epoch): the rows before it are history.
    public let judgedFrom: Int

    private var stores = StoreRows()
    private var measures = OutlierCheck.salesMeasures.map(MeasureColumns.init)
    /// The day whose rows are being gathered.
    private var day: Int?
    private var alarms: [Alarm] = []
    /// The date-shift keys of the judged rows, by run; and of each store's rows of one run, by slot.
    private var dateShifts = DateShiftTally()
    private var stretches: [DateShiftTally.Stretch?] = []
    private var references = ReferenceDays()
    /// The outlier scores of the day being checked: store slot, measure, score.
    private var trips: [Trip] = []

    /// A scan of the series from `firstDay` whose days from `judgedFrom` on are judged.
    public init(settings: CheckSettings, firstDay: Int, judgedFrom: Int) {
        self.settings = settings
        self.firstDay = firstDay
        self.judgedFrom = judgedFrom
    }

    /// Takes store `code`'s row of day `day` (days since the epoch). Rows come day by day; a
    /// later row of the same store-day replaces the earlier one. Returns `false`, taking
    /// nothing, for a row of a day before the last row's.
    public mutating func add(store code: String, day: Int, _ row: SalesDay) -> Bool {
        if let current = self.day {
            guard day >= current else { return false }
            for earlier in current..<day { close(earlier) }
        }
        self.day = day
        let slot = stores.slot(code)
        while stretches.count <= slot {
            stretches.append(nil)
            for measure in measures.indices { measures[measure].addStore() }
        }
        if day >= judgedFrom {
            stores.judged[slot] = (stores.judged[slot]?.lowerBound ?? day)...day
            // The days without a row before this one lie inside the store's judged days.
            alarms += stores.missing[slot]
            stores.missing[slot].removeAll()
        }
        stores.today[slot] = row
        return true
    }

    /// Per store with rows on judged days, the first and last of them.
    public var judgedDays: [String: ClosedRange<Int>] {
        var days: [String: ClosedRange<Int>] = [:]
        for (slot, code) in stores.codes.enumerated() {
            if let judged = stores.judged[slot] { days[code] = judged }
        }
        return days
    }

    /// Checks the last day and returns every alarm, in report order (store, date, kind).
    public mutating func finish() -> [Alarm] {
        guard let last = day else { return [] }
        close(last)
        day = nil
        for (slot, code) in stores.codes.enumerated() {
            stretches[slot]?.record(code: code, in: &dateShifts)
            guard let judged = stores.judged[slot] else { continue }
            var spans: [RepeatedPeriodCheck.Span] = []
            for lag in RepeatedPeriodCheck.lags.indices {
                let position = slot * RepeatedPeriodCheck.lags.count + lag
                spans += stores.spans[position]
                if let span = stores.trackers[position].end(before: last + 1) { spans.append(span) }
            }
            alarms += RepeatedPeriodCheck.alarms(spans, store: code) { $0.overlaps(judged) }
        }
        alarms += dateShifts.alarms()
        Self.sortInReportOrder(&alarms, codes: stores.codes)
        return alarms
    }

    /// Puts `alarms` in report order (store, date, kind: `Alarm.reportOrder`, whose feeds never
    /// decide here: one alarm per store, day and kind) in place, sorting keys and then moving
    /// each alarm once: a file may have tens of thousands.
    private static func sortInReportOrder(_ alarms: inout [Alarm], codes: [String]) {
        var ranks: [String: Int] = [:]
        for (rank, code) in codes.sorted().enumerated() { ranks[code] = rank }
        var order = alarms.indices.map { index in
            let alarm = alarms[index]
            return (ranks[alarm.store] ?? 0, alarm.days.start.daysSinceEpoch, alarm.kind.order, index)
        }.sorted { $0 < $1 }.map(\.3)
        // Position `target` takes the alarm at `order[target]`: each cycle of the permutation
        // moved round by swaps.
        for start in order.indices where order[start] != start {
            var target = start
            while order[target] != start {
                let source = order[target]
                alarms.swapAt(target, source)
                order[target] = target
                target = source
            }
            order[target] = target
        }
    }

    /// Checks day `day` with the rows gathered for it (none for a day without rows).
    private mutating func close(_ day: Int) {
        for slot in stores.codes.indices { settle(slot, day) }
        for measure in measures.indices {
            measures[measure].score(
                day: day, rows: stores.today, firstDay: firstDay, judgedFrom: judgedFrom, threshold: settings.z,
                references: &references
            ) { slot, trip in trips.append(Trip(slot: slot, measure: measure, trip: trip)) }
        }
        if !trips.isEmpty {
            let date = CivilDate(daysSinceEpoch: day)
            var start = 0
            // Scored measure by measure: a store's trips gathered, in the measures' order.
            trips.sort { ($0.slot, $0.measure) < ($1.slot, $1.measure) }
            while start < trips.count {
                let slot = trips[start].slot
                var end = start + 1
                while end < trips.count, trips[end].slot == slot { end += 1 }
                let found = trips[start..<end].map(\.trip)
                if let alarm = OutlierCheck.alarm(found, store: stores.codes[slot], date: date) { alarms.append(alarm) }
                start = end
            }
            trips.removeAll(keepingCapacity: true)
        }
        for slot in stores.today.indices { stores.today[slot] = nil }
    }

    /// Puts a store's row of `day` in its history and runs the checks of single rows and runs.
    private mutating func settle(_ slot: Int, _ day: Int) {
        let row = stores.today[slot]
        stores[slot, day] = row
        for lag in RepeatedPeriodCheck.lags.indices {
            let position = slot * RepeatedPeriodCheck.lags.count + lag
            let distance = RepeatedPeriodCheck.lags[lag]
            let earlier = day - distance >= firstDay ? stores[slot, day - distance] : nil
            if let span = stores.trackers[position].step(day: day, row: row, earlier: earlier) {
                stores.spans[position].append(span)
            }
        }
        let code = stores.codes[slot]
        if let row, row.run != 0 {
            if stretches[slot]?.run != row.run {
                stretches[slot]?.record(code: code, in: &dateShifts)
                stretches[slot] = DateShiftTally.Stretch(run: row.run)
            }
            stretches[slot]?.add(day: day, row: row, judged: day >= judgedFrom) { lag in
                day - lag >= firstDay ? stores[slot, day - lag] : nil
            }
        }
        guard day >= judgedFrom, stores.judged[slot] != nil else { return }
        let zeroDay = ZeroDayCheck.alarm(store: code, day: day, row: row, settings: settings) { weeks in
            day - 7 * weeks >= firstDay ? stores[slot, day - 7 * weeks] : nil
        }
        guard let row else {
            // A day without a row after the store's last row so far: judged once a later row comes.
            if let zeroDay { stores.missing[slot].append(zeroDay) }
            return
        }
        if let zeroDay { alarms.append(zeroDay) }
        if let alarm = ImplausibleCheck.alarm(store: code, day: day, row: row) { alarms.append(alarm) }
    }

    /// A measure's score of a store on the day being checked.
    private struct Trip {
        let slot: Int
        let measure: Int
        let trip: OutlierCheck.Trip
    }
}

/// What `StreamingScan` keeps per store, by slot (in order of first appearance): its code, the
/// row of the day being gathered, its rows of the last 512 days, and the state of the checks
/// that run along the days.
private struct StoreRows {
    static let days = 512

    private(set) var codes: [String] = []
    private var slotsByCode: [String: Int] = [:]
    /// The slot of the last row's store: rows come in the same order of stores day after day.
    private var lastSlot = -1
    var today: [SalesDay?] = []
    /// Rows by slot and day (`slot × 512 + day mod 512`): the year and a week the date-shift and
    /// repeated-period checks reach back.
    private var rows: [SalesDay?] = []
    /// The first and last day of each store's rows on judged days.
    var judged: [ClosedRange<Int>?] = []
    /// Per slot and distance (`slot × lags + lag`), the run of equal days going on, and the
    /// spans of equal days found.
    var trackers: [RepeatedPeriodCheck.Tracker] = []
    var spans: [[RepeatedPeriodCheck.Span]] = []
    /// Zero-day alarms of days without a row after the store's last row so far: they count once
    /// a later row comes.
    var missing: [[Alarm]] = []

    /// The slot of store `code`, added when new.
    mutating func slot(_ code: String) -> Int {
        let next = lastSlot + 1 < codes.count ? lastSlot + 1 : 0
        if next < codes.count, codes[next] == code {
            lastSlot = next
        } else if let known = slotsByCode[code] {
            lastSlot = known
        } else {
            lastSlot = codes.count
            slotsByCode[code] = lastSlot
            codes.append(code)
            today.append(nil)
            rows += Array(repeating: nil, count: Self.days)
            judged.append(nil)
            trackers += RepeatedPeriodCheck.lags.map(RepeatedPeriodCheck.Tracker.init)
            spans += Array(repeating: [], count: RepeatedPeriodCheck.lags.count)
            missing.append([])
        }
        return lastSlot
    }

    /// A store's row of `day` (days since the epoch), within 512 days of the last one set.
    subscript(slot: Int, day: Int) -> SalesDay? {
        get { rows[slot * Self.days + (day & (Self.days - 1))] }
        set { rows[slot * Self.days + (day & (Self.days - 1))] = newValue }
    }
}

/// What `StreamingScan` keeps of one outlier measure: the chain's level in the last 64 days (8
/// weeks and a day's reach, rounded up), then per store a block (`Block`) of its logarithms and
/// its values relative to the chain in the last 64 days, NaN where there are none, and the sorted
/// windows of each weekday's values in the 8 weeks before. One flat buffer, walked through
/// pointers: the loop runs for every store-day and measure.
private struct MeasureColumns {
    static let days = 64

    let definition: OutlierCheck.DailyMeasure
    private(set) var stores = 0
    private var storage = [Double](repeating: .nan, count: days)
    /// The stores' logarithms of the day being checked (scratch).
    private var present: [Double] = []

    init(_ definition: OutlierCheck.DailyMeasure) { self.definition = definition }

    mutating func addStore() {
        stores += 1
        storage += Block.empty
    }

    /// The outlier check of `day` (`OutlierCheck`): the chain's level, then each store's value
    /// relative to it against the same weekdays before, its score handed to `trip` when it is
    /// unusual, and the windows moved on.
    mutating func score(
        day: Int, rows: [SalesDay?], firstDay: Int, judgedFrom: Int, threshold: Double,
        references: inout ReferenceDays, trip: (_ slot: Int, OutlierCheck.Trip) -> Void
    ) {
        guard let read = definition.sales else { return }
        let (stores, definition) = (self.stores, self.definition)
        storage.withUnsafeMutableBufferPointer { storage in
            guard let start = storage.baseAddress else { return }
            let levels = Ring(start)
            let block = { (slot: Int) in Block(start + Self.days + slot * Block.size) }
            present.removeAll(keepingCapacity: true)
            for slot in 0..<stores {
                var value = Double.nan
                if let row = rows[slot], case let reading = read(row), reading > 0 { value = log(Double(reading)) }
                block(slot).logs[day] = value
                if !value.isNaN { present.append(value) }
            }
            let level = present.count >= ChainIndex.minimumStores ? RobustBaseline.median(selecting: &present) : .nan
            levels[day] = level
            var offset = level
            if !level.isNaN, case .unusual = references.judge(levels, at: day, earliest: firstDay, threshold: threshold)
            {
                offset = .nan
            }
            let weekday = ((day % 7) + 7) % 7
            let leaving = day - 7 * ReferenceDays.weeks
            for slot in 0..<stores {
                let store = block(slot)
                let value = store.logs[day]
                let relative = value - offset
                store.relative[day] = relative
                if !value.isNaN, day >= judgedFrom, let row = rows[slot],
                    let found = OutlierCheck.unusual(
                        offset: offset,
                        relative: {
                            let window = store.window(weekday)
                            guard window.count >= RobustBaseline.minimumCount else {
                                return references.judge(
                                    store.relative, at: day, earliest: firstDay, threshold: threshold)
                            }
                            return references.judge(relative, sorted: window, threshold: threshold)
                        },
                        own: { references.judge(store.logs, at: day, earliest: firstDay, threshold: threshold) })
                {
                    trip(
                        slot,
                        OutlierCheck.Trip(
                            measure: definition, value: read(row), expected: found.expected, score: found.score,
                            run: row.run))
                }
                store.move(
                    weekday, removing: leaving >= firstDay ? store.relative[leaving] : .nan, adding: relative)
            }
        }
    }

    /// A 64-day ring of values by day, NaN where there are none.
    private struct Ring: DayValues {
        let values: UnsafeMutablePointer<Double>

        init(_ values: UnsafeMutablePointer<Double>) { self.values = values }

        subscript(_ day: Int) -> Double {
            get { values[day & (MeasureColumns.days - 1)] }
            nonmutating set { values[day & (MeasureColumns.days - 1)] = newValue }
        }
    }

    /// One store's part of the buffer: its logarithms and relative values (two rings), then per
    /// weekday the values of that weekday in the 8 weeks before the next one that have one,
    /// sorted (8 places each), then per weekday how many there are.
    private struct Block {
        static let window = ReferenceDays.weeks
        static let size = 2 * MeasureColumns.days + 7 * window + 7
        static let empty =
            [Double](repeating: .nan, count: 2 * MeasureColumns.days) + [Double](repeating: 0, count: 7 * window + 7)

        let start: UnsafeMutablePointer<Double>

        init(_ start: UnsafeMutablePointer<Double>) { self.start = start }

        var logs: Ring { Ring(start) }
        var relative: Ring { Ring(start + MeasureColumns.days) }

        private func windowStart(_ weekday: Int) -> UnsafeMutablePointer<Double> {
            start + 2 * MeasureColumns.days + weekday * Self.window
        }

        private func countSlot(_ weekday: Int) -> UnsafeMutablePointer<Double> {
            start + 2 * MeasureColumns.days + 7 * Self.window + weekday
        }

        /// A weekday's window, sorted.
        func window(_ weekday: Int) -> UnsafeBufferPointer<Double> {
            UnsafeBufferPointer(start: windowStart(weekday), count: Int(countSlot(weekday).pointee))
        }

        /// Takes `removing` (the value 8 weeks back; NaN for none) out of a weekday's window and
        /// puts `adding` (NaN for none) in, keeping it sorted.
        func move(_ weekday: Int, removing: Double, adding: Double) {
            let values = windowStart(weekday)
            var count = Int(countSlot(weekday).pointee)
            if !removing.isNaN {
                var index = 0
                while index < count, values[index] != removing { index += 1 }
                if index < count {
                    while index < count - 1 {
                        values[index] = values[index + 1]
                        index += 1
                    }
                    count -= 1
                }
            }
            if !adding.isNaN, count < Self.window {
                var slot = count
                while slot > 0, values[slot - 1] > adding {
                    values[slot] = values[slot - 1]
                    slot -= 1
                }
                values[slot] = adding
                count += 1
            }
            countSlot(weekday).pointee = Double(count)
        }
    }
}
