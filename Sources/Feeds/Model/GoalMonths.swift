import CivilCalendar

/// A store of the directory, with the names exports may use for it.
public struct StoreRecord: Equatable, Sendable {
    /// The statuses a store may have.
    public static let statuses = ["active", "closed"]

    public var code: String
    /// Empty when the directory gives none.
    public var name: String
    public var region: String?
    public var status: String
    public var aliases: [String]
    /// The day the store opened, when the directory says (SPEC section 21).
    public var opened: CivilDate?
    /// The day the store closed, when it has.
    public var closed: CivilDate?

    public init(
        code: String, name: String, region: String?, status: String = "active", aliases: [String] = [],
        opened: CivilDate? = nil, closed: CivilDate? = nil
    ) {
        self.code = code
        self.name = name
        self.region = region
        self.status = status
        self.aliases = aliases
        self.opened = opened
        self.closed = closed
    }

    /// `08 Natick (East)`: the code, the name when there is one, and the region when there is one.
    public var title: String {
        (name.isEmpty ? code : "\(code) \(name)") + (region.map { " (\($0))" } ?? "")
    }
}

/// One target: a month's (or with `date`, one day's) target for a metric, for one store or `global`.
public struct GoalRecord: Equatable, Sendable {
    /// `YYYY-MM`, or a fiscal month `FY2025-M04` under a retail calendar (`GoalMonths`).
    public var period: String
    /// `global` or a store code.
    public var scope: String
    /// A metric's JSON key (`totalSales`, `upt`, …).
    public var metric: String
    public var target: Double
    /// The day of a daily target, inside `period`.
    public var date: CivilDate?

    public init(period: String, scope: String, metric: String, target: Double, date: CivilDate?) {
        self.period = period
        self.scope = scope
        self.metric = metric
        self.target = target
        self.date = date
    }

    /// The metric keys goals may name (SPEC section 7).
    public static let metrics: Set<String> = [
        "totalSales", "avgAds", "upt", "ccpPct", "gpPct", "creditApps", "birdeyeReviews", "guestCapture",
        "outboundCalls",
    ]
}

/// The months goals are set for (SPEC sections 7 and 21): calendar months, `YYYY-MM`, or the
/// fiscal months of a retail calendar, `FY2025-M04`.
public enum GoalMonths: Sendable, Equatable {
    case calendar
    case fiscal(RetailCalendar)

    /// The days of the month `label` names, when it is a month of this kind.
    public func range(of label: String) -> DateRange? {
        switch self {
        case .calendar:
            guard label.count == 7, let first = CivilDate(iso8601: label + "-01") else { return nil }
            return DateRange(
                start: first, end: first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1))
        case .fiscal(let calendar):
            return RetailCalendar.Month(label: label).map(calendar.range(of:))
        }
    }

    /// What a goal's period must look like, for messages.
    public var expected: String {
        switch self {
        case .calendar: return "a month as YYYY-MM (the calendar is gregorian)"
        case .fiscal(let calendar):
            return "a fiscal month such as FY2025-M04 (the calendar is \(calendar.pattern.rawValue))"
        }
    }
}
