/// The exports ddkpi ingests (SPEC section 3), plus the two reference files.
public enum FeedID: String, CaseIterable, Sendable, Codable {
    case salesAudit = "sales-audit"
    case creditApps = "credit-apps"
    case birdeyeReviews = "birdeye-reviews"
    case crmIntakes = "crm-intakes"
    case outboundCalls = "outbound-calls"
    /// The POS salesperson report: sales per associate, store and day or month.
    case employeePerformance = "employee-performance"
    /// Sales by vendor and/or category, per store and day or month.
    case merchSales = "merch-sales"
    /// The store directory (`ddkpi stores import`).
    case stores
    /// Monthly and daily targets (`ddkpi goals import`).
    case goals

    /// The nightly feeds, in SPEC order.
    public static let dataFeeds: [FeedID] = [
        .salesAudit, .creditApps, .birdeyeReviews, .crmIntakes, .outboundCalls, .employeePerformance, .merchSales,
    ]
}

/// A canonical field a feed yields, whatever its header says. Its name (`totalSales`) is how
/// the config file and messages refer to it; its raw value indexes per-field tables.
public enum CanonicalField: Int, CaseIterable, Sendable {
    case store, date, weekStart, totalSales, totalTransactions, totalItems, ccpPct, gpPct, upt, ads
    case reviewCount, rating
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday
    // Reference files.
    case code, name, region, status, aliases
    case period, scope, metric, target
    // Associates, vendors and categories.
    case employeeId, employeeName, vendor, vendorId, category
    // Store directory dates (SPEC section 21), after the others so earlier raw values stay.
    case opened, closed
    /// Whether the store was open that day (a sales audit's `Open` column, SPEC section 26).
    case open

    /// The weekday columns in calendar order, Monday first.
    public static let weekdays: [CanonicalField] = [
        .monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday,
    ]

    /// The field's name, as the config file spells it (`totalSales`).
    public var name: String { String(describing: self) }

    /// The field with a name, if any.
    public init?(name: String) {
        guard let field = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = field
    }

    /// 0 for Monday … 6 for Sunday, for weekday columns.
    public var weekdayIndex: Int? { Self.weekdays.firstIndex(of: self) }
}
