import CivilCalendar
import Feeds

/// Which stores are comparable over a range R and its LY range L (SPEC section 21): open on
/// every day of both, so opened on or before L's start (a store without an `opened` day counts
/// as open since its first sales-audit row) and not closed on or before R's end.
///
/// A period without LY (a retail 53rd week) compares nothing; its comp stores are those open on
/// every day of R.
struct ComparableStores {
    private let opened: [String: CivilDate]
    private let closed: [String: CivilDate]

    /// `firstSales` stands in for `opened` where the directory gives none.
    init(directory: [StoreRecord], firstSales: [String: CivilDate]) {
        var opened: [String: CivilDate] = [:]
        var closed: [String: CivilDate] = [:]
        for store in directory {
            opened[store.code] = store.opened ?? firstSales[store.code]
            closed[store.code] = store.closed
        }
        self.opened = opened
        self.closed = closed
    }

    /// Whether `store` was open on every day of `range` and of `lastYear`.
    func isComparable(_ store: String, over range: DateRange, lastYear: DateRange?) -> Bool {
        guard let opened = opened[store], opened <= (lastYear?.start ?? range.start) else { return false }
        if let closed = closed[store], closed <= range.end { return false }
        return true
    }
}
