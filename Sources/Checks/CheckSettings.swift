import CivilCalendar

/// The `[check]` table of the config (SPEC section 18); every default is the SPEC's.
public struct CheckSettings: Sendable, Equatable {
    /// The robust z-score above which a value is an outlier.
    public var z = 5.0
    /// The share of sales by which associate (or merch) sales may differ from sales-audit's.
    public var tolerance = 0.005
    /// The least difference, in cents, that can trip a reconcile alarm ($1.00).
    public var toleranceFloorCents: Int64 = 100
    /// Days every store may be closed without a `zero-day` alarm (`[check] closed`'s plain entries).
    public var closed: [ClosedDay] = []
    /// Days some stores may be closed (its `{ stores = […], dates = […] }` and `{ region = …,
    /// dates = […] }` entries; SPEC section 26), a region's stores once `resolvingRegions` names them.
    public var storeClosed: [StoreClosedDays] = []
    /// Whether vendor and category sales per store-month are reconciled with sales-audit's.
    public var reconcileMerch = false
    /// What an ingest does with a file that trips alarms.
    public var onIngest = IngestGate.warn
    /// The weekday event feeds' weeks start on (0 Monday … 6 Sunday): the configured week start.
    public var weekStart = 0

    public init() {}

    /// Whether `day` is one the chain may be closed.
    public func isClosed(_ day: CivilDate) -> Bool { closed.contains { $0.excuses(day) } }

    /// Whether `store` may be closed on `day`: a day of the chain's, or of an entry that names the
    /// store (or its region, once resolved).
    public func isClosed(_ day: CivilDate, store: String) -> Bool {
        isClosed(day) || storeClosed.contains { $0.stores.contains(store) && $0.excuses(day) }
    }

    /// These settings with every store entry checked against the store directory (`directory`: each
    /// store's code and region, `nil` for none) and every region entry given its stores' codes.
    /// Throws for a store code or a region the directory does not have: such an entry would
    /// excuse nothing, silently.
    public func resolvingRegions(_ directory: [(code: String, region: String?)]) throws -> CheckSettings {
        guard !storeClosed.isEmpty else { return self }
        let codes = Set(directory.map(\.code))
        var resolved = self
        for index in resolved.storeClosed.indices {
            var entry = resolved.storeClosed[index]
            if let region = entry.region {
                entry.stores = Set(directory.filter { $0.region == region }.map(\.code))
                guard !entry.stores.isEmpty else {
                    let regions = Set(directory.compactMap(\.region)).sorted()
                    throw ClosedDaysError(
                        entry: entry,
                        "region \"\(region)\" is not in the store directory "
                            + (regions.isEmpty
                                ? "(it has no regions)" : "(its regions: \(regions.joined(separator: ", ")))"))
                }
            } else if let unknown = entry.stores.sorted().first(where: { !codes.contains($0) }) {
                throw ClosedDaysError(entry: entry, "store \(unknown) is not in the store directory")
            }
            resolved.storeClosed[index] = entry
        }
        return resolved
    }
}

/// Closed days of some stores only: those listed, or those of a region (SPEC section 26).
public struct StoreClosedDays: Sendable, Equatable {
    /// The stores' codes: those listed, or a region's once resolved (none before).
    public var stores: Set<String>
    /// The region the entry names, `nil` for a list of stores.
    public var region: String?
    /// The days, in every form a chain-wide entry takes.
    public var days: [ClosedDay]

    /// The entry for the stores `codes`.
    public init(stores codes: Set<String>, days: [ClosedDay]) {
        stores = codes
        region = nil
        self.days = days
    }

    /// The entry for the stores of `region`, whose codes `CheckSettings.resolvingRegions` fills in.
    public init(region: String, days: [ClosedDay]) {
        stores = []
        self.region = region
        self.days = days
    }

    /// Whether one of the entry's days is `date`.
    public func excuses(_ date: CivilDate) -> Bool { days.contains { $0.excuses(date) } }
}

/// A `[check] closed` entry the store directory does not bear out, and why.
public struct ClosedDaysError: Error, CustomStringConvertible, Equatable {
    public let entry: StoreClosedDays
    public let reason: String

    public init(entry: StoreClosedDays, _ reason: String) {
        self.entry = entry
        self.reason = reason
    }

    public var description: String { reason }
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
