import CivilCalendar

/// A count per store and day: credit applications or CRM intakes.
public struct DailyCountRecord: Equatable, Sendable {
    public var store: String
    public var date: CivilDate
    public var count: Int

    public init(store: String, date: CivilDate, count: Int) {
        self.store = store
        self.date = date
        self.count = count
    }
}

/// A count per store and week: Birdeye reviews or outbound calls, with the count of each day from `weekStart` when known.
public struct WeeklyCountRecord: Equatable, Sendable {
    public var store: String
    public var weekStart: CivilDate
    public var total: Int
    /// Seven counts from `weekStart`, or `nil` when the source gave only a weekly total.
    public var dailyCounts: [Int]?

    public init(store: String, weekStart: CivilDate, total: Int, dailyCounts: [Int]?) {
        self.store = store
        self.weekStart = weekStart
        self.total = total
        self.dailyCounts = dailyCounts
    }
}
