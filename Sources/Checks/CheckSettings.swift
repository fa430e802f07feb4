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
    /// A day whose date moves from year to year (SPEC section 26).
    case moveable(MoveableDay)

    /// Reads `MM-DD`, `YYYY-MM-DD` or a moveable day's name (`easter`); `nil` for anything else.
    public init?(_ text: String) {
        if let moveable = MoveableDay(rawValue: text) {
            self = .moveable(moveable)
            return
        }
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
        case .moveable(let moveable): return moveable.date(in: date.year) == date
        }
    }
}

/// A holiday whose date moves: Easter and the days around it, and the US Thanksgiving and the
/// day after it.
public enum MoveableDay: String, Sendable, CaseIterable {
    case easter
    case goodFriday = "good-friday"
    case easterMonday = "easter-monday"
    case thanksgiving
    case blackFriday = "black-friday"

    /// The day's date in `year` (Gregorian).
    public func date(in year: Int) -> CivilDate {
        switch self {
        case .easter: return Self.easterSunday(year)
        case .goodFriday: return Self.easterSunday(year).adding(days: -2)
        case .easterMonday: return Self.easterSunday(year).adding(days: 1)
        case .thanksgiving: return Self.thanksgiving(year)
        case .blackFriday: return Self.thanksgiving(year).adding(days: 1)
        }
    }

    /// Western Easter Sunday by the anonymous Gregorian algorithm (Meeus, Astronomical
    /// Algorithms, chapter 8).
    static func easterSunday(_ year: Int) -> CivilDate {
        let a = year % 19
        let b = year / 100
        let c = year % 100
        let d = b / 4
        let e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4
        let k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(year: year, month: month, day: day)
    }

    /// The fourth Thursday of November.
    static func thanksgiving(_ year: Int) -> CivilDate {
        let first = CivilDate(year: year, month: 11, day: 1)
        // Days since the epoch count from a Thursday (1970-01-01), so a multiple of 7 is one.
        let toThursday = ((-first.daysSinceEpoch) % 7 + 7) % 7
        return first.adding(days: toThursday + 21)
    }
}
