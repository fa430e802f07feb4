import CivilCalendar

/// The `[check]` table of the config (SPEC section 18); every default is the SPEC's.
public struct CheckSettings: Sendable, Equatable {
    /// The robust z-score above which a value is an outlier.
    public var z = 5.0
    /// The share of sales by which associate (or merch) sales may differ from sales-audit's.
    public var tolerance = 0.005
    /// The least difference, in cents, that can trip a reconcile alarm ($1.00).
    public var toleranceFloorCents: Int64 = 100
    /// Days a store may be closed without a `zero-day` alarm.
    public var closed: [ClosedDay] = []
    /// Whether vendor and category sales per store-month are reconciled with sales-audit's.
    public var reconcileMerch = false
    /// What an ingest does with a file that trips alarms.
    public var onIngest = IngestGate.warn
    /// The weekday event feeds' weeks start on (0 Monday … 6 Sunday): the configured week start.
    public var weekStart = 0

    public init() {}

    /// Whether `day` is one the chain may be closed.
    public func isClosed(_ day: CivilDate) -> Bool { closed.contains { $0.excuses(day) } }
}

/// What an ingest does when the checks find alarms in the file's store-days.
public enum IngestGate: String, Sendable, CaseIterable {
    /// Log the alarms and commit.
    case warn
    /// Commit nothing of the file until it is ingested again with `--accept-alarms`.
    case hold
}

/// A day a store may be closed: every year on a month and day (`"12-25"`) or once (`"2025-07-04"`).
public enum ClosedDay: Sendable, Equatable {
    case everyYear(month: Int, day: Int)
    case once(CivilDate)

    /// Reads `MM-DD` or `YYYY-MM-DD`; `nil` for anything else.
    public init?(_ text: String) {
        if let date = CivilDate(iso8601: text) {
            self = .once(date)
            return
        }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let month = Int(parts[0]), let day = Int(parts[1]),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: 2024)).contains(day)
        else { return nil }
        self = .everyYear(month: month, day: day)
    }

    /// Whether this closed day is `date`.
    public func excuses(_ date: CivilDate) -> Bool {
        switch self {
        case .everyYear(let month, let day): return date.month == month && date.day == day
        case .once(let closed): return date == closed
        }
    }
}
