/// A feed's id as files, the config file and the ledger name it (`sales-audit`): the id of a
/// definition in `FeedCatalog.all`, each declared in its definition's file (`CrmIntakes.swift`).
public struct FeedID: Hashable, Sendable, RawRepresentable, CaseIterable, CustomStringConvertible {
    public let rawValue: String

    /// The id of the catalog's definition of that name; `nil` for any other name.
    public init?(rawValue: String) {
        guard FeedCatalog.all.contains(where: { $0.id.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    /// Declares the id of a definition, in its file.
    init(declaring rawValue: String) { self.rawValue = rawValue }

    /// Every feed of the catalog, the nightly feeds first, in SPEC order.
    public static let allCases = FeedCatalog.all.map(\.id)

    /// The nightly feeds, in SPEC order (the reference files are not among them).
    public static let dataFeeds = FeedCatalog.all.filter { !$0.rows.isReference }.map(\.id)

    public var description: String { rawValue }
}

extension FeedID: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let id = FeedID(rawValue: name) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(name)\" is not a feed id")
        }
        self = id
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
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
