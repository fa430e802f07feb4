import CivilCalendar
import Feeds

/// One store-day of the sales audit as the checks read it: exact stored units (cents, counts,
/// percent millionths) and the run that wrote it.
public struct SalesDay: Sendable {
    public var cents: Int64
    /// Transactions; `nil` when the row's file did not report them (unknown, never judged as 0).
    public var transactions: Int64?
    /// Items; `nil` when the row's file did not report them.
    public var items: Int64?
    public var ccpMillionths: Int64?
    public var gpMillionths: Int64?
    public var run: Int64
    /// Whether the export marked the store closed that day (its `Open` column, SPEC section 26):
    /// excused by `zero-day`, and neither judged nor a reference day for `outlier`.
    public var closed: Bool

    public init(
        cents: Int64, transactions: Int64?, items: Int64?, ccpMillionths: Int64?, gpMillionths: Int64?, run: Int64,
        closed: Bool = false
    ) {
        self.cents = cents
        self.transactions = transactions
        self.items = items
        self.ccpMillionths = ccpMillionths
        self.gpMillionths = gpMillionths
        self.run = run
        self.closed = closed
    }

    /// Whether every measure equals `other`'s (the runs aside): a copied row.
    public func hasSameFigures(as other: SalesDay) -> Bool {
        cents == other.cents && transactions == other.transactions && items == other.items
            && ccpMillionths == other.ccpMillionths && gpMillionths == other.gpMillionths
    }
}

/// An associate-sales total of one store-day: the day rows of the employee feed, summed.
public struct AssociateDay: Sendable {
    public var cents: Int64
    /// The latest run among the day's rows.
    public var run: Int64

    public init(cents: Int64, run: Int64) {
        self.cents = cents
        self.run = run
    }
}

/// An event feed's count for one store-week (a weekly row, or a daily feed's days summed).
public struct EventWeek: Sendable {
    public var count: Int64
    /// The latest run among the week's rows.
    public var run: Int64
    /// Whether every day of the week lies on or before the last day checked.
    public var complete: Bool

    public init(count: Int64, run: Int64, complete: Bool) {
        self.count = count
        self.run = run
        self.complete = complete
    }
}

/// An event feed's store-weeks over a span, one slot per week from `first` (days since the
/// epoch, a week's first day): arrays, not dictionaries, since millions of rows are added.
public struct EventWeeks: Sendable {
    public let first: Int
    private var slots: [EventWeek?]

    /// `count` empty weeks from the week starting on day `first`.
    public init(first: Int, count: Int) {
        self.first = first
        slots = Array(repeating: nil, count: max(count, 0))
    }

    /// The week starting on day `start` (days since the epoch); `nil` when it has no rows, or
    /// lies outside the span or off the weeks' first days.
    public subscript(start: Int) -> EventWeek? {
        get { slot(start).flatMap { slots[$0] } }
        set { if let slot = slot(start) { slots[slot] = newValue } }
    }

    /// The first days of the weeks that have rows, in order.
    public var starts: [Int] { slots.indices.filter { slots[$0] != nil }.map { first + 7 * $0 } }

    private func slot(_ start: Int) -> Int? {
        let offset = start - first
        guard offset >= 0, offset % 7 == 0, offset / 7 < slots.count else { return nil }
        return offset / 7
    }
}

/// Vendor and category sales of one store-month (merch rows, day and month grains summed).
public struct MerchMonth: Sendable {
    /// Σ sales of rows that name a vendor, in cents (`nil` when none does).
    public var vendorCents: Int64?
    /// Σ sales of rows that name a category, in cents (`nil` when none does).
    public var categoryCents: Int64?
    /// The latest run among the month's rows.
    public var run: Int64

    public init(vendorCents: Int64?, categoryCents: Int64?, run: Int64) {
        self.vendorCents = vendorCents
        self.categoryCents = categoryCents
        self.run = run
    }
}

/// What the checks read of one store: consecutive days from `first` (days since the epoch),
/// sales-audit and associate sales per day, event counts per week, and which days are judged
/// (the rest are history to judge them against).
public struct StoreSeries: Sendable {
    public let store: String
    /// The first day held, as days since 1970-01-01.
    public let first: Int
    public var sales: [SalesDay?]
    public var associates: [AssociateDay?]
    /// Per event feed, counts by week.
    public var eventWeeks: [FeedID: EventWeeks] = [:]
    /// Merch sales keyed by their month's first day (days since the epoch), when reconciled.
    public var merchMonths: [Int: MerchMonth] = [:]
    /// The days alarms may name (days since the epoch).
    public var judged: JudgedDays

    /// A store's series over `days`, empty.
    public init(store: String, days: DateRange, judged: JudgedDays) {
        self.store = store
        first = days.start.daysSinceEpoch
        sales = Array(repeating: nil, count: days.days)
        associates = Array(repeating: nil, count: days.days)
        self.judged = judged
    }

    /// The day at position `index`.
    public func date(_ index: Int) -> CivilDate { CivilDate(daysSinceEpoch: first + index) }

    /// The position of `date`, `nil` outside the series.
    public func index(of date: CivilDate) -> Int? {
        let index = date.daysSinceEpoch - first
        return sales.indices.contains(index) ? index : nil
    }

    /// Whether an alarm may name the day at `index`.
    func isJudged(_ index: Int) -> Bool { judged.contains(first + index) }

    /// Whether an alarm may name the span of positions `range`.
    func isJudged(_ range: ClosedRange<Int>) -> Bool { range.contains { isJudged($0) } }
}

/// The days a check judges: a range of days, or the store-days one run wrote.
public enum JudgedDays: Sendable {
    /// Every day from `start` through `end` (days since the epoch).
    case range(ClosedRange<Int>)
    /// These days only (days since the epoch).
    case only(Set<Int>)

    /// Whether `day` (days since the epoch) is judged.
    public func contains(_ day: Int) -> Bool {
        switch self {
        case .range(let range): return range.contains(day)
        case .only(let days): return days.contains(day)
        }
    }
}

extension StoreSeries {
    /// The same store over `days`: what this series holds on those days, the rest empty.
    public func rebased(to days: DateRange) -> StoreSeries {
        var moved = StoreSeries(store: store, days: days, judged: judged)
        let shift = first - moved.first
        for index in sales.indices where moved.sales.indices.contains(index + shift) {
            moved.sales[index + shift] = sales[index]
            moved.associates[index + shift] = associates[index]
        }
        for (feed, weeks) in eventWeeks {
            // The new first week: the old weeks' alignment, on or before the new first day.
            let offset = moved.first - weeks.first
            let firstWeek = weeks.first + 7 * (offset >= 0 ? offset / 7 : -((6 - offset) / 7))
            var kept = EventWeeks(first: firstWeek, count: days.days / 7 + 2)
            for start in weeks.starts { kept[start] = weeks[start] }
            moved.eventWeeks[feed] = kept
        }
        moved.merchMonths = merchMonths.filter { days.contains(CivilDate(daysSinceEpoch: $0.key)) }
        return moved
    }
}
