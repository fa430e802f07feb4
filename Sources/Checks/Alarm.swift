import CivilCalendar
import Feeds

/// The kinds of wrong-data alarm (SPEC section 18), in the order alarms of one store-day are listed.
public enum AlarmKind: String, Sendable, CaseIterable, Codable {
    /// A store-day's (or an event feed's store-week's) value far from the same weekdays before it.
    case outlier
    /// An active store with no sales on a day it usually trades.
    case zeroDay = "zero-day"
    /// Seven days whose figures equal a week, a month or a year earlier: a copied export.
    case repeatedPeriod = "repeated-period"
    /// A run whose rows equal the same store's rows a week or a year earlier: a re-dated file.
    case dateShift = "date-shift"
    /// Associate sales that do not add up to the store's sales.
    case reconcile
    /// A value no store can have: negative counts, a percent outside 0–100, UPT over 20, an
    /// average sale over $100,000.
    case implausible

    /// Whether the alarm names a span of days (`start`, `end`) rather than one `date`.
    public var isSpan: Bool { self == .repeatedPeriod || self == .dateShift }

    /// The position of the kind in SPEC order, for sorting.
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

/// One alarm: a store, a day or span, a kind, the measures that tripped it, the value seen, what
/// was expected, a score, and the run (and file) that wrote the value.
///
/// `value` and `expected` are in the units `kpi` shows (money in dollars, counts as counts). The
/// score's meaning depends on the kind (see `AlarmScan`): the robust z-score for an outlier, the
/// previous same weekdays with sales for a zero-day, the days of a repeated span, the share of a
/// run's keys that match for a date shift, the difference over the tolerance for a reconcile,
/// and the value over its limit for an implausible value.
public struct Alarm: Sendable, Equatable {
    public var kind: AlarmKind
    public var feed: FeedID
    public var store: String
    /// One day, or the span of a span kind.
    public var days: DateRange {
        get { DateRange(start: CivilDate(daysSinceEpoch: firstDay), end: CivilDate(daysSinceEpoch: lastDay)) }
        set {
            firstDay = newValue.start.daysSinceEpoch
            lastDay = newValue.end.daysSinceEpoch
        }
    }
    /// `days` as days since the epoch: two numbers rather than two dates of three, since a
    /// file's gate may hold tens of thousands of alarms.
    private var firstDay: Int
    private var lastDay: Int
    /// The measures that tripped the alarm, comma-separated, the one `value` describes first.
    public var metric: String
    public var value: Double?
    public var expected: Double?
    public var score: Double
    /// The ledger run that wrote the value, when one did (a missing store-day has none).
    public var run: Int64?
    /// The file of `run`, as the ledger names it; the warehouse fills it in.
    public var file: String?
    /// What the alarm means, in a sentence for people (text output).
    public var note: String

    public init(
        kind: AlarmKind, feed: FeedID, store: String, days: DateRange, metric: String, value: Double?,
        expected: Double?, score: Double, run: Int64?, note: String
    ) {
        self.kind = kind
        self.feed = feed
        self.store = store
        firstDay = days.start.daysSinceEpoch
        lastDay = days.end.daysSinceEpoch
        self.metric = metric
        self.value = value
        self.expected = expected
        self.score = score
        self.run = run
        self.note = note
    }

    /// Alarms in report order: by store, date, kind (SPEC section 18).
    public static func reportOrder(_ lhs: Alarm, _ rhs: Alarm) -> Bool {
        (lhs.store, lhs.firstDay, lhs.kind.order, lhs.feed.rawValue)
            < (rhs.store, rhs.firstDay, rhs.kind.order, rhs.feed.rawValue)
    }
}
