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

extension FeedRowMapper {
    /// Counts an event row (a credit application, an intake) for its store-day.
    mutating func countDailyEvent(_ fields: inout RowFields) {
        guard let code = fields.required(.store, { cache.store($0) }),
            let day = fields.required(.date, { cache.date($0) })
        else { return }
        daily.add(store: code, date: day, row: fields.rowNumber)
    }

    /// Counts a review or call row for its store-week: an event with a date, a weekly total, or

    /// a row of weekday counts.
    mutating func countWeeklyEvent(_ fields: inout RowFields) {
        guard let code = fields.required(.store, { cache.store($0) }) else { return }
        if fields.isPresent(.date) || !fields.has(.weekStart) {
            guard let day = fields.required(.date, { cache.date($0) }) else { return }
            weekly.add(store: code, date: day, row: fields.rowNumber)
        } else if fields.has(.reviewCount) {
            guard let week = fields.required(.weekStart, { cache.date($0) }),
                let count = fields.required(.reviewCount, ValueNormalizer.count)
            else { return }
            weekly.add(store: code, weekOf: week, total: count, row: fields.rowNumber)
        } else if CanonicalField.weekdays.contains(where: fields.has) {
            guard let given = fields.required(.weekStart, { cache.date($0) }) else { return }
            // SPEC section 4: the week is normalised first, and each weekday column is that
            // weekday's date inside it, so a row's counts never move to another week.
            let week = given.weekStart(on: reader.options.weekStart)
            for day in CanonicalField.weekdays where fields.has(day) {
                guard let count = fields.optional(day, ValueNormalizer.count), let weekday = day.weekdayIndex else {
                    return
                }
                let columnDate = week.adding(days: (weekday - reader.options.weekStart + 7) % 7)
                if let count, count != 0 {
                    weekly.add(store: code, date: columnDate, count: count, row: fields.rowNumber)
                }
            }
        } else {
            // A week column but neither counts nor weekday columns: the row needs its date.
            _ = fields.required(.date, { cache.date($0) })
        }
    }
}
