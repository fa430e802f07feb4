/// The definitions of every feed, with SPEC section 3's aliases.
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

    /// The definition of a feed, before any config-file aliases.
    public static func definition(_ id: FeedID) -> FeedDefinition {
        switch id {
        case .salesAudit: return salesAudit
        case .employeePerformance: return employeePerformance
        case .merchSales: return merchSales
        case .creditApps: return creditApps
        case .birdeyeReviews: return birdeyeReviews
        case .crmIntakes: return crmIntakes
        case .outboundCalls: return outboundCalls
        case .stores: return stores
        case .goals: return goals
        }
    }

    /// Feeds whose signature is tested before any other, in this order: their header rows hold
    /// every field `sales-audit` needs too, so they must never be read as it (SPEC section 3).
    static let signatureFirst: [FeedID] = [.employeePerformance, .merchSales]

    static let salesAudit = FeedDefinition(
        id: .salesAudit,
        fields: salesFields.merging([
            .store: storeAliases, .date: dateAliases, .upt: ["UPT"],
            .ads: ["ADS", "Avg Sale", "Average Sale", "Avg Ticket"],
        ]) { $1 },
        // Transactions and items are read when the file has them (SPEC section 26).
        layouts: [[.field(.store), .field(.date), .field(.totalSales)]])

    static let employeePerformance = FeedDefinition(
        id: .employeePerformance,
        fields: salesFields.merging([
            .store: storeAliases, .date: dateAliases, .period: periodAliases, .employeeId: employeeIdAliases,
            .employeeName: employeeNameAliases,
        ]) { $1 },
        layouts: [
            [
                .field(.employeeId), .field(.store), .anyOf([.date, .period]), .field(.totalSales),
                .field(.totalTransactions),
                .field(.totalItems),
            ]
        ],
        signature: employeeIdAliases)

    static let merchSales = FeedDefinition(
        id: .merchSales,
        fields: [
            .store: storeAliases, .date: dateAliases, .period: periodAliases, .vendor: vendorAliases,
            .vendorId: vendorIdAliases, .category: categoryAliases, .totalSales: salesFields[.totalSales] ?? [],
            .totalItems: salesFields[.totalItems] ?? [],
        ],
        layouts: [
            [
                .field(.store), .anyOf([.date, .period]), .anyOf([.vendor, .vendorId, .category]), .field(.totalSales),
                .field(.totalItems),
            ]
        ],
        signature: vendorAliases + vendorIdAliases + categoryAliases)

    static let creditApps = FeedDefinition(
        id: .creditApps, fields: [.store: storeAliases, .date: dateAliases],
        layouts: [[.field(.store), .field(.date)]],
        signature: ["Application Date", "App Date", "Applicant", "Applicant Name", "Credit Limit"])

    static let birdeyeReviews = FeedDefinition(
        id: .birdeyeReviews,
        fields: weekdayAliases.merging([
            .store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases,
            .reviewCount: ["Reviews", "Review Count", "# Reviews"], .rating: ["Rating", "Star Rating", "Stars"],
        ]) { $1 },
        layouts: [
            [.field(.store), .field(.weekStart), .field(.reviewCount)],
            [.field(.store), .field(.weekStart), .anyWeekday()],
            [.field(.store), .field(.date)],
        ],
        signature: ["Rating", "Star Rating", "Stars", "Review Date", "Reviews", "Review Count", "Reviewer"])

    static let crmIntakes = FeedDefinition(
        id: .crmIntakes, fields: [.store: storeAliases, .date: dateAliases],
        layouts: [[.field(.store), .field(.date)]],
        signature: ["Intake Date", "Company", "Intake"])

    static let outboundCalls = FeedDefinition(
        id: .outboundCalls,
        fields: weekdayAliases.merging([.store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases]) { $1 },
        layouts: [[.field(.store), .field(.weekStart), .anyWeekday()], [.field(.store), .field(.date)]],
        signature: ["Call Date", "Call Time", "Mon", "Monday", "Duration", "Call Duration", "Dialed Number"])

    static let stores = FeedDefinition(
        id: .stores,
        fields: [
            .code: ["Code", "Store Code", "Store", "Store #", "Store No"], .name: ["Name", "Store Name"],
            .region: ["Region", "District"], .status: ["Status"], .aliases: ["Aliases", "Alias", "Also Known As"],
            .opened: ["Opened", "Open Date", "Opening Date", "Date Opened"],
            .closed: ["Closed", "Close Date", "Closing Date", "Date Closed"],
        ],
        layouts: [[.field(.code)]])

    static let goals = FeedDefinition(
        id: .goals,
        fields: [
            .period: ["Period", "Month"], .scope: ["Scope", "Store"], .metric: ["Metric", "KPI"],
            .target: ["Target", "Goal"],
            .date: ["Date", "Day"],
        ],
        layouts: [[.field(.period), .field(.scope), .field(.metric), .field(.target)]])
}
