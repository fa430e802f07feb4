import CivilCalendar

extension FeedID {
    public static let employeePerformance = FeedID(declaring: "employee-performance")
}

extension FeedCatalog {
    /// The POS salesperson report: an associate's sales per store and day or month (SPEC section 9).
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
        signature: employeeIdAliases, fileNames: ["employee", "associate", "salesperson"], rows: .associateSales)
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

extension FeedRowMapper {
    /// An associate's day or month at a store; the latest name seen per associate is kept for `finish`.
    mutating func employeeSalesRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let id = fields.required(.employeeId, ValueNormalizer.identifier),
            let code = fields.required(.store, { cache.store($0) }),
            let grain = self.grain(&fields), let figures = Self.salesFigures(&fields),
            let name = fields.optional(.employeeName, ValueNormalizer.key)
        else { return nil }
        if let name {
            // One dictionary access per row: the entry is read and replaced in place.
            let asOf = grain.lastDay
            Self.keepLatest(
                &employeeNames[id, default: (asOf, name, fields.rowNumber)], asOf: asOf, name: name,
                row: fields.rowNumber)
        }
        return .employeeSales(EmployeeSalesRecord(employeeId: id, store: code, grain: grain, figures: figures))
    }

    /// Replaces `entry` with the name as of `asOf` when that is no earlier (a later row wins ties).
    static func keepLatest(
        _ entry: inout (asOf: CivilDate, name: String, row: Int), asOf: CivilDate, name: String, row: Int
    ) {
        if entry.asOf <= asOf { entry = (asOf, name, row) }
    }
}
