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
    static let employeeNameAliases = ["Employee", "Employee Name", "Associate", "Salesperson", "Sales Associate", "Clerk", "Associate Name"]
    static let vendorAliases = ["Vendor", "Vendor Name", "Brand", "Designer", "Supplier"]
    static let vendorIdAliases = ["Vendor ID", "Vendor #", "Vendor No", "Vendor Code"]
    static let categoryAliases = ["Category", "Dept", "Department", "Class", "Product Category", "Category Name"]

    /// The definition of a feed, before any config-file aliases.
    public static func definition(_ id: FeedID) -> FeedDefinition {
        switch id {
        case .salesAudit:
            var fields: [CanonicalField: [String]] = [
                .store: storeAliases, .date: dateAliases, .upt: ["UPT"], .ads: ["ADS", "Avg Sale", "Average Sale", "Avg Ticket"],
            ]
            fields.merge(salesFields) { $1 }
            return FeedDefinition(
                id: id, fields: fields,
                layouts: [[.field(.store), .field(.date), .field(.totalSales), .field(.totalTransactions), .field(.totalItems)]],
                table: "store_report")
        case .employeePerformance:
            var fields: [CanonicalField: [String]] = [
                .store: storeAliases, .date: dateAliases, .period: periodAliases, .employeeId: employeeIdAliases,
                .employeeName: employeeNameAliases,
            ]
            fields.merge(salesFields) { $1 }
            let sales: [FieldRequirement] = [.field(.totalSales), .field(.totalTransactions), .field(.totalItems)]
            return FeedDefinition(
                id: id, fields: fields,
                layouts: [[.field(.employeeId), .field(.store), .anyOf([.date, .period])] + sales],
                table: "employee_report")
        case .merchSales:
            return FeedDefinition(
                id: id,
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
                table: "merch_report")
        case .creditApps:
            return FeedDefinition(
                id: id, fields: [.store: storeAliases, .date: dateAliases],
                layouts: [[.field(.store), .field(.date)]], table: "credit_report")
        case .birdeyeReviews:
            var fields: [CanonicalField: [String]] = [
                .store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases,
                .reviewCount: ["Reviews", "Review Count", "# Reviews"], .rating: ["Rating", "Star Rating", "Stars"],
            ]
            fields.merge(weekdayAliases) { $1 }
            return FeedDefinition(
                id: id, fields: fields,
                layouts: [
                    [.field(.store), .field(.weekStart), .field(.reviewCount)], [.field(.store), .field(.weekStart), .anyWeekday()],
                    [.field(.store), .field(.date)],
                ],
                table: "birdeye_report")
        case .crmIntakes:
            return FeedDefinition(
                id: id, fields: [.store: storeAliases, .date: dateAliases],
                layouts: [[.field(.store), .field(.date)]], table: "crm_intake_report")
        case .outboundCalls:
            var fields: [CanonicalField: [String]] = [.store: storeAliases, .date: dateAliases, .weekStart: weekStartAliases]
            fields.merge(weekdayAliases) { $1 }
            return FeedDefinition(
                id: id, fields: fields,
                layouts: [[.field(.store), .field(.weekStart), .anyWeekday()], [.field(.store), .field(.date)]],
                table: "outbound_call_report")
        case .stores:
            return FeedDefinition(
                id: id,
                fields: [
                    .code: ["Code", "Store Code", "Store", "Store #", "Store No"], .name: ["Name", "Store Name"],
                    .region: ["Region", "District"], .status: ["Status"], .aliases: ["Aliases", "Alias", "Also Known As"],
                ],
                layouts: [[.field(.code), .field(.name)]], table: "store")
        case .goals:
            return FeedDefinition(
                id: id,
                fields: [
                    .period: ["Period", "Month"], .scope: ["Scope", "Store"], .metric: ["Metric", "KPI"],
                    .target: ["Target", "Goal"], .date: ["Date", "Day"],
                ],
                layouts: [[.field(.period), .field(.scope), .field(.metric), .field(.target)]], table: "goal")
        }
    }

    /// Header signatures that identify a feed by its columns alone (SPEC section 3), used only
    /// when neither `--feed` nor the file name decides.
    static func signature(of id: FeedID) -> Set<String> {
        switch id {
        case .salesAudit: return []
        case .creditApps: return ["applicationdate", "appdate", "applicant", "applicantname", "creditlimit"]
        case .birdeyeReviews: return ["rating", "starrating", "stars", "reviewdate", "reviews", "reviewcount", "reviewer"]
        case .crmIntakes: return ["intakedate", "company", "intake"]
        case .outboundCalls: return ["calldate", "calltime", "mon", "monday", "duration", "callduration", "dialednumber"]
        case .employeePerformance: return Set(employeeIdAliases.map(HeaderKey.normalize))
        case .merchSales: return Set((vendorAliases + vendorIdAliases + categoryAliases).map(HeaderKey.normalize))
        case .stores, .goals: return []
        }
    }

    /// Feeds whose signature is tested before any other, in this order: their header rows hold
    /// every field `sales-audit` needs too, so they must never be read as it (SPEC section 3).
    static let signatureFirst: [FeedID] = [.employeePerformance, .merchSales]
}
