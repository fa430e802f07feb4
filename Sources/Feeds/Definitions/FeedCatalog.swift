/// The definitions of every feed, with SPEC section 3's aliases: the aliases several feeds
/// share are here, each feed's definition, record and row mapping in a file named for it
/// (`SalesAudit.swift`, …).
public enum FeedCatalog {
    static let storeAliases = [
        "Store", "Store #", "Store No", "Store Code", "Location", "Location Name", "Company", "Business Name", "Branch",
    ]
    static let dateAliases = [
        "Date", "Business Date", "Sales Date", "Trans Date", "Application Date", "App Date", "Review Date", "Created",
        "Created Date", "Intake Date", "Call Date", "Call Time", "Start Time", "Timestamp",
    ]
    static let weekStartAliases = ["Week", "Week Of", "Week Start", "Week Starting", "Week Beginning"]

    static let weekdayAliases: [CanonicalField: [String]] = [
        .monday: ["Mon", "Monday"], .tuesday: ["Tue", "Tues", "Tuesday"], .wednesday: ["Wed", "Wednesday"],
        .thursday: ["Thu", "Thur", "Thurs", "Thursday"], .friday: ["Fri", "Friday"], .saturday: ["Sat", "Saturday"],
        .sunday: ["Sun", "Sunday"],
    ]

    static let salesFields: [CanonicalField: [String]] = [
        .totalSales: ["Net Sales", "Total Sales", "Sales", "Net Sales $"],
        .totalTransactions: ["Transactions", "Trans", "Trans Count", "# Trans", "Tickets", "Invoices"],
        .totalItems: ["Items", "Units", "Items Sold", "Units Sold", "Qty"],
        .ccpPct: ["CCP %", "CCP", "CCP Pct", "Care Plan %", "Protection Plan %"],
        .gpPct: ["GP %", "GP", "GP Pct", "Gross Profit %", "Gross Margin %", "GM %"],
    ]
    static let periodAliases = ["Period", "Month"]
    static let employeeIdAliases = [
        "Employee ID", "Emp ID", "Emp #", "Employee #", "Associate ID", "Salesperson ID", "Clerk #", "Employee No",
        "Emp No", "Associate #",
    ]
    static let employeeNameAliases = [
        "Employee", "Employee Name", "Associate", "Salesperson", "Sales Associate", "Clerk", "Associate Name",
    ]
    static let vendorAliases = ["Vendor", "Vendor Name", "Brand", "Designer", "Supplier"]
    static let vendorIdAliases = ["Vendor ID", "Vendor #", "Vendor No", "Vendor Code"]
    static let categoryAliases = ["Category", "Dept", "Department", "Class", "Product Category", "Category Name"]

    /// Every feed's definition, the nightly feeds in SPEC order, then the reference files: a
    /// new feed is its file in `Definitions/` and a line here.
    public static let all: [FeedDefinition] = [
        salesAudit, creditApps, birdeyeReviews, crmIntakes, outboundCalls, employeePerformance, merchSales, stores,
        goals,
    ]

    /// The definitions by id.
    private static let byID = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

    /// The definition of a feed, before any config-file aliases (one matching no header for an id left out of `all`).
    public static func definition(_ id: FeedID) -> FeedDefinition {
        byID[id] ?? FeedDefinition(id: id, fields: [:], layouts: [], rows: .dailyEvents)
    }

    /// Feeds whose signature is tested before any other, in this order: their header rows hold
    /// every field `sales-audit` needs too, so they must never be read as it (SPEC section 3).
    static let signatureFirst: [FeedID] = [.employeePerformance, .merchSales]
}
