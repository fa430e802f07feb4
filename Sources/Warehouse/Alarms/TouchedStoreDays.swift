import Feeds

/// The store-days a file wrote, per store as the span from its first to its last day: what
/// the ingest gate checks (SPEC section 18). A span, not a set, keeps the cost per record to
/// one lookup; a nightly file touches one day per store, where the two are the same.
struct TouchedStoreDays {
    /// Per store, the first and last day (days since the epoch).
    private(set) var days: [String: ClosedRange<Int>] = [:]

    var isEmpty: Bool { days.isEmpty }

    /// Notes the store-days of a data record (a week's seven days; month rows are not day-checked).
    mutating func add(_ record: FeedRecord) {
        switch record {
        case .salesAudit(let sales): add(sales.store, sales.date.daysSinceEpoch...sales.date.daysSinceEpoch)
        case .dailyCount(let count):
            add(count.store, count.date.daysSinceEpoch...count.date.daysSinceEpoch)
        case .weeklyCount(let week):
            add(week.store, week.weekStart.daysSinceEpoch...(week.weekStart.daysSinceEpoch + 6))
        case .employeeSales(let sales):
            if case .day(let date) = sales.grain { add(sales.store, date.daysSinceEpoch...date.daysSinceEpoch) }
        case .employeeName, .merchSales, .vendorName, .store, .goal: break
        }
    }

    /// Notes a store's days from the first to the last of `span` (days since the epoch).
    mutating func add(_ store: String, _ span: ClosedRange<Int>) {
        if let known = days[store] {
            guard !known.contains(span.lowerBound) || !known.contains(span.upperBound) else { return }
            days[store] = min(known.lowerBound, span.lowerBound)...max(known.upperBound, span.upperBound)
        } else {
            days[store] = span
        }
    }
}
