import CivilCalendar

/// What a POS sales row reports, for a store-day or for an associate's day or month.
public struct SalesFigures: Equatable, Sendable {
    /// Net sales in cents.
    public var totalSalesCents: Int64
    public var totalTransactions: Int
    public var totalItems: Int
    /// Care-plan attachment in millionths of one (452000 for 45.2 %), when given.
    public var ccpPctMillionths: Int64?
    /// Gross-profit margin in millionths of one, when given.
    public var gpPctMillionths: Int64?

    public init(
        totalSalesCents: Int64, totalTransactions: Int, totalItems: Int, ccpPctMillionths: Int64? = nil,
        gpPctMillionths: Int64? = nil
    ) {
        self.totalSalesCents = totalSalesCents
        self.totalTransactions = totalTransactions
        self.totalItems = totalItems
        self.ccpPctMillionths = ccpPctMillionths
        self.gpPctMillionths = gpPctMillionths
    }

    /// Units per transaction, recomputed (never taken from the file); `nil` with no transactions.
    public var upt: Double? { totalTransactions == 0 ? nil : Double(totalItems) / Double(totalTransactions) }
    /// Average sale in dollars, recomputed; `nil` with no transactions.
    public var ads: Double? { totalTransactions == 0 ? nil : Double(totalSalesCents) / Double(totalTransactions * 100) }
    /// Average sale in cents, rounded half away from zero; `nil` with no transactions.
    public var adsCents: Int64? {
        totalTransactions == 0 ? nil : FixedPoint.scaled(Double(totalSalesCents) / Double(totalTransactions), digits: 0)
    }
}

/// One store-day of the POS sales audit.
public struct SalesAuditRecord: Equatable, Sendable {
    public var store: String
    public var date: CivilDate
    public var figures: SalesFigures

    public init(store: String, date: CivilDate, figures: SalesFigures) {
        self.store = store
        self.date = date
        self.figures = figures
    }
}

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

/// A store of the directory, with the names exports may use for it.
public struct StoreRecord: Equatable, Sendable {
    public var code: String
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

/// The time grain of an associate or merch row: one day, or one whole calendar month.
public enum ReportGrain: Equatable, Hashable, Sendable {
    case day(CivilDate)
    /// The month's first day.
    case month(CivilDate)

    /// The stored key: `YYYY-MM-DD` for a day, `YYYY-MM` for a month.
    public var key: String {
        switch self {
        case .day(let date): return date.iso8601
        case .month(let first): return first.iso8601Month
        }
    }

    /// `day` or `month`, the grain column's value.
    public var name: String {
        if case .day = self { return "day" }
        return "month"
    }

    /// The last day the row covers (a month row covers its whole month).
    public var lastDay: CivilDate {
        switch self {
        case .day(let date): return date
        case .month(let first): return first.adding(days: CivilDate.daysIn(month: first.month, year: first.year) - 1)
        }
    }
}

/// One associate's sales at one store over a day or a month.
public struct EmployeeSalesRecord: Equatable, Sendable {
    /// The id as trimmed text (`0042` and `42` differ).
    public var employeeId: String
    public var store: String
    public var grain: ReportGrain
    public var figures: SalesFigures

    public init(employeeId: String, store: String, grain: ReportGrain, figures: SalesFigures) {
        self.employeeId = employeeId
        self.store = store
        self.grain = grain
        self.figures = figures
    }
}

/// An associate's name as of a day: the name on the associate's latest row.
public struct EmployeeNameRecord: Equatable, Sendable {
    public var employeeId: String
    public var name: String
    /// The last day of the row the name was read from.
    public var asOf: CivilDate

    public init(employeeId: String, name: String, asOf: CivilDate) {
        self.employeeId = employeeId
        self.name = name
        self.asOf = asOf
    }
}

/// A vendor's name as of a day: the name on the vendor's latest row (SPEC section 10).
public struct VendorNameRecord: Equatable, Sendable {
    /// The vendor key: its id when given, else its name.
    public var vendorKey: String
    public var name: String
    /// The day of the row the name was read from, `YYYY-MM-DD`; a month row counts as of day
    /// 31 of its month (`YYYY-MM-31`), after every day row of that month.
    public var asOf: String

    public init(vendorKey: String, name: String, asOf: String) {
        self.vendorKey = vendorKey
        self.name = name
        self.asOf = asOf
    }
}

/// Sales of one vendor and/or category at one store over a day or a month.
public struct MerchSalesRecord: Equatable, Sendable {
    public var store: String
    public var grain: ReportGrain
    /// The vendor id when given, else the vendor name (trimmed, spaces collapsed); `""` without a vendor.
    public var vendorKey: String
    /// The vendor's name as written (or its id when only that is given); `""` without a vendor.
    public var vendorName: String
    /// The category (trimmed, spaces collapsed); `""` without a category.
    public var category: String
    public var totalSalesCents: Int64
    public var totalItems: Int

    public init(
        store: String, grain: ReportGrain, vendorKey: String, vendorName: String, category: String,
        totalSalesCents: Int64,
        totalItems: Int
    ) {
        self.store = store
        self.grain = grain
        self.vendorKey = vendorKey
        self.vendorName = vendorName
        self.category = category
        self.totalSalesCents = totalSalesCents
        self.totalItems = totalItems
    }
}

/// What a feed file yields for the warehouse.
public enum FeedRecord: Equatable, Sendable {
    case salesAudit(SalesAuditRecord)
    case creditApplications(DailyCountRecord)
    case crmIntakes(DailyCountRecord)
    case birdeyeReviews(WeeklyCountRecord)
    case outboundCalls(WeeklyCountRecord)
    case employeeSales(EmployeeSalesRecord)
    case employeeName(EmployeeNameRecord)
    case merchSales(MerchSalesRecord)
    case vendorName(VendorNameRecord)
    case store(StoreRecord)
    case goal(GoalRecord)
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
