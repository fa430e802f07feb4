import Checks
import CivilCalendar
import Feeds

extension Warehouse {
    /// The alarms on every store-day from `start` through `end` (of `stores` only, when given).
    public func alarms(
        from start: CivilDate, through end: CivilDate, stores: Set<String>? = nil, settings: CheckSettings
    )
        throws -> [Alarm]
    {
        let days = start.daysSinceEpoch...end.daysSinceEpoch
        return try backend.read { session in
            try alarms(
                session, judgedSpan: days, settings: settings,
                judged: { code in stores.map { $0.contains(code) } ?? true ? .range(days) : .only([]) })
        }
    }

    /// The alarms on the store-days run `run` wrote and still holds; `nil` for an unknown run.
    public func alarms(run: Int64, settings: CheckSettings) throws -> [Alarm]? {
        try backend.read { session in
            guard try session.integer("SELECT 1 FROM ingest_run WHERE id = ?", [.integer(run)]) != nil else {
                return nil
            }
            let written = try Self.storeDays(session, writtenBy: run)
            let allDays = written.values.flatMap { $0 }
            guard let first = allDays.min(), let last = allDays.max() else { return [] }
            return try alarms(
                session, judgedSpan: first...last, settings: settings,
                judged: { code in .only(written[code] ?? []) })
        }
    }

    /// The alarms on `touched` (per store, the days a file wrote), in the file's transaction:
    /// the ingest gate (SPEC section 18).
    func alarms(_ session: some SQLSession, touched: [String: ClosedRange<Int>], settings: CheckSettings) throws
        -> [Alarm]
    {
        guard let first = touched.values.map(\.lowerBound).min(), let last = touched.values.map(\.upperBound).max()
        else { return [] }
        // Chunks of days with the history carried from one to the next: a file of a million
        // store-days is checked in memory the size of a few thousand.
        let stores = Int(try session.integer("SELECT COUNT(*) FROM store", []) ?? 1)
        var gate = settings
        gate.reconcileMerch = false
        return try alarms(
            session, judgedSpan: first...last, settings: gate,
            chunkDays: max(AlarmSeriesLoader.recentDays, Self.gateStoreDaysPerChunk / max(stores, 1)),
            judged: { code in touched[code].map(JudgedDays.range) ?? .only([]) })
    }

    /// Judged store-days per chunk of the ingest gate (its judged days × the stores).
    static let gateStoreDaysPerChunk = 40_000

    /// Loads every store's series over the judged days and the history they are judged against,
    /// in chunks of `chunkDays` judged days (each carrying what the one before read), runs the
    /// checks, and names each alarm's file from the ledger.
    func alarms(
        _ session: some SQLSession, judgedSpan: ClosedRange<Int>, settings: CheckSettings, chunkDays: Int = .max,
        judged: @escaping (String) -> JudgedDays
    ) throws -> [Alarm] {
        var found: [Alarm] = []
        var dateShifts = DateShiftTally()
        var carried: (series: [StoreSeries], loaded: [ClosedRange<Int>]) = ([], [])
        var start = judgedSpan.lowerBound
        while start <= judgedSpan.upperBound {
            let end = judgedSpan.upperBound - start < chunkDays ? judgedSpan.upperBound : start + chunkDays - 1
            carried = try AlarmSeriesLoader(
                chunk: start...end, lastDay: judgedSpan.upperBound, weekStart: settings.weekStart,
                loadsMerch: settings.reconcileMerch, judged: judged
            ).load(session, carrying: carried.series, loaded: carried.loaded)
            // The first chunk owns what lies before it, the last what lies after it.
            let owning =
                (start == judgedSpan.lowerBound ? Int.min : start)...(end == judgedSpan.upperBound ? Int.max : end)
            let findings = AlarmScan(settings: settings).scan(carried.series, owning: owning)
            found += findings.alarms
            dateShifts.merge(findings.dateShifts)
            start = end + 1
        }
        var alarms = (found + dateShifts.alarms()).sorted(by: Alarm.reportOrder)
        try Self.nameFiles(&alarms, session)
        return alarms
    }

    /// Names each alarm's file: the ledger's path of its run (a run 0, a row no run wrote, is none).
    static func nameFiles(_ alarms: inout [Alarm], _ session: some SQLSession) throws {
        let files = try Self.files(session, runs: Set(alarms.compactMap(\.run)))
        for index in alarms.indices {
            if alarms[index].run == 0 { alarms[index].run = nil }
            alarms[index].file = alarms[index].run.flatMap { files[$0] }
        }
    }

    /// The ledger's path of each run.
    private static func files(_ session: some SQLSession, runs: Set<Int64>) throws -> [Int64: String] {
        var files: [Int64: String] = [:]
        for chunk in Array(runs.sorted()).chunked(into: 500) {
            try session.scan(
                "SELECT id, path FROM ingest_run WHERE id IN (\(placeholders(chunk.count)))",
                chunk.map(SQLValue.integer)
            ) { row in files[row.int64(0)] = row.text(1) }
        }
        return files
    }

    /// The store-days whose rows run `run` wrote (and no later run replaced), per store: the
    /// days of its store-day rows, and the seven days of its store-week rows.
    private static func storeDays(_ session: some SQLSession, writtenBy run: Int64) throws -> [String: Set<Int>] {
        var days: [String: Set<Int>] = [:]
        for table in FeedTables.all {
            let grain = table.period == .dayOrMonth ? " AND grain = 'day'" : ""
            try session.scan(
                "SELECT \(table.period.dateColumn), store_code FROM \(table.name) WHERE ingest_run_id = ?\(grain)",
                [.integer(run)]
            ) { row in
                guard let day = row.dayNumber(0) else { return }
                let span = table.period == .week ? 7 : 1
                days[row.text(1), default: []].formUnion(day..<(day + span))
            }
        }
        return days
    }
}

extension Array {
    /// The array in consecutive pieces of at most `size` elements.
    func chunked(into size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
