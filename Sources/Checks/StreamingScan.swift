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
    /// The alarms found but outliers, and the outliers found, kept small until `alarms()`.
    private var found: [Alarm] = []
    /// Per store slot, its outliers in date order.
    private var outliers: [[Outlier]] = []
    /// The date-shift keys of the rows, by run; and each store's keys of its current run (0: none yet).
    private var dateShifts = DateShiftTally()
    private var stretches: [DateShiftTally.Stretch] = []
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
            stretches.append(DateShiftTally.Stretch(run: 0))
            outliers.append([])
            for measure in measures.indices { measures[measure].addStore() }
        }
        if day >= judgedFrom {
            stores.judged[slot] = (stores.judged[slot]?.lowerBound ?? day)...day
            // The days without a row before this one lie inside the store's judged days.
            if !stores.missing[slot].isEmpty {
                found += stores.missing[slot]
                stores.missing[slot].removeAll()
            }
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

    /// Checks the last day: every alarm is found (`alarms` builds them). Ends the scan: what it
    /// kept of the days is let go.
    public mutating func finish() {
        guard let last = day else { return }
        close(last)
        day = nil
        for (slot, code) in stores.codes.enumerated() {
            stretches[slot].record(code: code, in: &dateShifts)
            guard let judged = stores.judged[slot] else { continue }
            var spans: [RepeatedPeriodCheck.Span] = []
            for lag in RepeatedPeriodCheck.lags.indices {
                let position = slot * RepeatedPeriodCheck.lags.count + lag
                spans += stores.spans[position]
                if let span = stores.trackers[position].end(before: last + 1) { spans.append(span) }
            }
            found += RepeatedPeriodCheck.alarms(spans, store: code) { $0.overlaps(judged) }
        }
        found += dateShifts.alarms()
        codes = stores.codes
        stores = StoreRows()
        measures = []
        dateShifts = DateShiftTally()
        stretches = []
    }

    /// The stores' codes by slot, once the scan is finished.
    private var codes: [String] = []

    /// Every alarm, once the scan is finished, in report order (store, date, kind:
    /// `Alarm.reportOrder`; one alarm per store, day and kind here): the alarms sorted, each
    /// store's outliers (in date order) merged in, store by store, each outlier's alarm built
    /// once into an array of the right size. A file may have tens of thousands, whose texts
    /// repeat (they are shared).
    public mutating func alarms() -> [Alarm] {
        found.sort(by: Alarm.reportOrder)
        let measures = OutlierCheck.salesMeasures
        // The texts, built once each: metrics by top measure and the others' bits, notes by top
        // measure and ratio.
        var metrics = [String?](repeating: nil, count: measures.count << measures.count)
        var notes = [[String: String]](repeating: [:], count: measures.count)
        var sorted: [Alarm] = []
        sorted.reserveCapacity(found.count + outliers.reduce(0) { $0 + $1.count })
        var next = 0
        for slot in codes.indices.sorted(by: { codes[$0] < codes[$1] }) {
            let code = codes[slot]
            for outlier in outliers[slot] {
                let date = CivilDate(daysSinceEpoch: Int(outlier.day))
                while next < found.count,
                    (found[next].store, found[next].days.start, found[next].kind.order)
                        < (code, date, AlarmKind.outlier.order)
                {
                    sorted.append(found[next])
                    next += 1
                }
                let top = Int(outlier.top)
                let trip = OutlierCheck.Trip(
                    measure: measures[top], value: outlier.value, expected: outlier.expected, score: outlier.score,
                    run: outlier.run)
                let metricsKey = top << measures.count | Int(outlier.tripped)
                let metric =
                    metrics[metricsKey]
                    ?? OutlierCheck.metrics(
                        trip, tripped: measures.indices.filter { outlier.tripped & 1 << $0 != 0 }.map { measures[$0] })
                metrics[metricsKey] = metric
                let ratio = OutlierCheck.ratio(trip)
                let note: String
                if let known = notes[top][ratio] {
                    note = known
                } else {
                    note = OutlierCheck.note(measures[top], ratio: ratio)
                    notes[top][ratio] = note
                }
                sorted.append(OutlierCheck.alarm(trip, metric: metric, note: note, store: code, date: date))
            }
            outliers[slot] = []
        }
        sorted += found[next...]
        found = []
        return sorted
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
            var start = 0
            // Scored measure by measure: a store's trips gathered, in the measures' order.
            trips.sort { ($0.slot, $0.measure) < ($1.slot, $1.measure) }
            while start < trips.count {
                let slot = trips[start].slot
                var end = start + 1
                while end < trips.count, trips[end].slot == slot { end += 1 }
                let found = trips[start..<end]
                if let top = found.max(by: { $0.trip.isLed(by: $1.trip) }) {
                    outliers[slot].append(
                        Outlier(
                            day: Int32(day), top: UInt8(top.measure),
                            tripped: found.reduce(0) { $0 | 1 << $1.measure }, value: top.trip.value,
                            expected: top.trip.expected, score: top.trip.score, run: top.trip.run))
                }
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
        // Rows compared with earlier ones by their cents first: the rest of a row only when equal.
        let cents = row?.cents ?? StoreRows.noRow
        for lag in RepeatedPeriodCheck.lags.indices {
            let position = slot * RepeatedPeriodCheck.lags.count + lag
            let earlier = day - RepeatedPeriodCheck.lags[lag]
            let repeats =
                cents > 0 && earlier >= firstDay && stores.cents(slot, earlier) == cents
                && RepeatedPeriodCheck.repeats(row, stores[slot, earlier])
            // Most days neither repeat nor end a run: the tracker is left as it is.
            guard repeats || stores.trackers[position].isRunning else { continue }
            if let span = stores.trackers[position].step(day: day, repeats: repeats, cents: cents, run: row?.run ?? 0) {
                stores.spans[position].append(span)
            }
        }
        // The store's code is read where an alarm or a run's keys need it, not for every row.
        if let row, row.run != 0 {
            if stretches[slot].run != row.run {
                stretches[slot].record(code: stores.codes[slot], in: &dateShifts)
                stretches[slot] = DateShiftTally.Stretch(run: row.run)
            }
            stretches[slot].add(day: day, row: row, judged: day >= judgedFrom) { lag in
                let earlier = stores.cents(slot, day - lag)
                guard day - lag >= firstDay, earlier != StoreRows.noRow else { return nil }
                return (earlier, earlier == cents && stores[slot, day - lag].map(row.hasSameFigures) == true)
            }
        }
        guard day >= judgedFrom, stores.judged[slot] != nil else { return }
        // Most rows have sales and break no rule: the checks' alarms are not built for them.
        if ZeroDayCheck.hasNoSales(row),
            let zeroDay = ZeroDayCheck.alarm(
                store: stores.codes[slot], day: day, row: row, settings: settings,
                weeksBefore: { weeks in
                    day - 7 * weeks >= firstDay ? stores[slot, day - 7 * weeks] : nil
                })
        {
            // A day without a row after the store's last row so far is judged once a later row comes.
            if row == nil { stores.missing[slot].append(zeroDay) } else { found.append(zeroDay) }
        }
        if let row, !ImplausibleCheck.isPlausible(row),
            let alarm = ImplausibleCheck.alarm(store: stores.codes[slot], day: day, row: row)
        {
            found.append(alarm)
        }
    }

    /// An outlier store-day, kept small until `finish` builds its alarm: its measures (indices in
    /// `OutlierCheck.salesMeasures`) that tripped, and the one that leads the alarm
    /// (`OutlierCheck.Trip.isLed(by:)`).
    private struct Outlier {
        let day: Int32
        let top: UInt8
        /// A bit per measure.
        let tripped: UInt8
        let value: Double
        let expected: Double
        let score: Double
        let run: Int64
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
    /// repeated-period checks reach back; and their cents (`noRow` for none), compared first.
    private var rows: [SalesDay?] = []
    private var rowCents: [Int64] = []
    static let noRow = Int64.min
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
            rowCents += Array(repeating: Self.noRow, count: Self.days)
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
        set {
            rows[slot * Self.days + (day & (Self.days - 1))] = newValue
            rowCents[slot * Self.days + (day & (Self.days - 1))] = newValue?.cents ?? Self.noRow
        }
    }

    /// The cents of a store's row of `day` (`noRow` for none).
    func cents(_ slot: Int, _ day: Int) -> Int64 { rowCents[slot * Self.days + (day & (Self.days - 1))] }
}

/// What `StreamingScan` keeps of one outlier measure: the chain's level in the last 64 days (8
/// weeks and a day's reach, rounded up), then per store its logarithms and its values relative
/// to the chain in the last 64 days, NaN where there are none. One flat buffer, walked through
/// pointers: the loop runs for every store-day and measure.
private struct MeasureColumns {
    static let days = 64
    /// Per store: its logarithms, then its relative values.
    static let storeSize = 2 * days

    let definition: OutlierCheck.DailyMeasure
    private(set) var stores = 0
    private var storage = [Double](repeating: .nan, count: days)
    /// The stores' logarithms of the day being checked (scratch, a slot per store).
    private var present: [Double] = []

    /// ln of the small counts (transactions and items), each computed as the check computes it.
    private static let smallLogs = (0..<4_096).map { log(Double($0)) }

    init(_ definition: OutlierCheck.DailyMeasure) { self.definition = definition }

    mutating func addStore() {
        stores += 1
        storage += [Double](repeating: .nan, count: Self.storeSize)
        present.append(.nan)
    }

    /// The outlier check of `day` (`OutlierCheck`): the chain's level, then each store's value
    /// relative to it against the same weekdays before, its score handed to `trip` when it is
    /// unusual.
    mutating func score(
        day: Int, rows: [SalesDay?], firstDay: Int, judgedFrom: Int, threshold: Double,
        references: inout ReferenceDays, trip: (_ slot: Int, OutlierCheck.Trip) -> Void
    ) {
        guard let figure = definition.sales else { return }
        let (stores, definition, smallLogs) = (self.stores, self.definition, Self.smallLogs)
        storage.withUnsafeMutableBufferPointer { storage in
            guard let start = storage.baseAddress else { return }
            let levels = Ring(start)
            let level = present.withUnsafeMutableBufferPointer { present in
                var count = 0
                for slot in 0..<stores {
                    var value = Double.nan
                    // A day the export marks closed is neither judged nor a reference (`OutlierCheck`).
                    if let row = rows[slot], !row.closed, let reading = figure.value(of: row), reading > 0 {
                        if let small = Int(exactly: reading), small < smallLogs.count {
                            value = smallLogs[small]
                        } else {
                            value = log(reading)
                        }
                    }
                    Ring(start + Self.days + slot * Self.storeSize)[day] = value
                    // Written whatever the value, kept when it is one: no branch, no append.
                    present[count] = value
                    count += value.isNaN ? 0 : 1
                }
                return count >= ChainIndex.minimumStores
                    ? RobustBaseline.median(selecting: UnsafeMutableBufferPointer(rebasing: present[..<count])) : .nan
            }
            levels[day] = level
            var offset = level
            if !level.isNaN, case .unusual = references.judge(levels, at: day, earliest: firstDay, threshold: threshold)
            {
                offset = .nan
            }
            // The same weekdays of the 8 weeks before lie in the rings when the series reaches back that far.
            let wholeWeeks = day - 7 * ReferenceDays.weeks >= firstDay
            for slot in 0..<stores {
                let logs = Ring(start + Self.days + slot * Self.storeSize)
                let relatives = Ring(start + Self.days + slot * Self.storeSize + Self.days)
                let value = logs[day]
                let relative = value - offset
                relatives[day] = relative
                guard !value.isNaN, day >= judgedFrom else { continue }
                // Most days are usual against the 8 same weekdays before, told so without the
                // scores' machinery: most of them lie near (no sort), else their median does (when
                // all 8 have a value, they are the reference days, sorted without gathering).
                if !offset.isNaN, wholeWeeks,
                    ReferenceDays.isUsualByMost(relative, threshold: threshold, { relatives[day - 7 * ($0 + 1)] })
                {
                    continue
                }
                let weeks = !offset.isNaN && wholeWeeks ? relatives.sortedWeeks(before: day) : nil
                if let weeks, ReferenceDays.isUsual(relative, sorted: weeks, threshold: threshold) { continue }
                if let row = rows[slot], let reading = figure.value(of: row),
                    let found = OutlierCheck.unusual(
                        offset: offset,
                        relative: {
                            guard let weeks else {
                                return references.judge(relatives, at: day, earliest: firstDay, threshold: threshold)
                            }
                            return ReferenceDays.judge(relative, sorted: weeks, threshold: threshold)
                        },
                        own: { references.judge(logs, at: day, earliest: firstDay, threshold: threshold) })
                {
                    trip(
                        slot,
                        OutlierCheck.Trip(
                            measure: definition, value: reading, expected: found.expected,
                            score: found.score, run: row.run))
                }
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

        /// The values of the same weekday in the 8 weeks before `day`, sorted; `nil` unless all
        /// 8 have one. Sorted by a network of compare-exchanges (Batcher's, 19 of them), which
        /// does not branch on the values: random data would mispredict every branch of a sort.
        func sortedWeeks(before day: Int) -> EightValues? {
            EightValues(
                sorting: self[day - 7], self[day - 14], self[day - 21], self[day - 28], self[day - 35],
                self[day - 42], self[day - 49], self[day - 56])
        }
    }
}
