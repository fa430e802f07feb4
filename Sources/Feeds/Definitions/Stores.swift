import CivilCalendar
import SheetStream

extension FeedID {
    public static let stores = FeedID(declaring: "stores")
}

extension FeedCatalog {
    /// The store directory (`ddkpi stores import`).
    static let stores = FeedDefinition(
        id: .stores,
        fields: [
            .code: ["Code", "Store Code", "Store", "Store #", "Store No"], .name: ["Name", "Store Name"],
            .region: ["Region", "District"], .status: ["Status"], .aliases: ["Aliases", "Alias", "Also Known As"],
            .opened: ["Opened", "Open Date", "Opening Date", "Date Opened"],
            .closed: ["Closed", "Close Date", "Closing Date", "Date Closed"],
        ],
        layouts: [[.field(.code)]], rows: .storeDirectory)
}

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

extension FeedRowMapper {
    /// A store of the directory, with its aliases.
    func storeRecord(_ fields: inout RowFields) -> FeedRecord? {
        guard let code = fields.required(.code, Self.storeCode), let name = fields.optional(.name, Self.text),
            let region = fields.optional(.region, Self.text), let status = fields.optional(.status, Self.storeStatus),
            let aliases = fields.optional(.aliases, Self.text),
            let opened = fields.optional(.opened, { cache.date($0) }),
            let closed = fields.optional(.closed, { cache.date($0) })
        else { return nil }
        if let opened, let closed, closed < opened {
            fields.failRow("closed \(closed.iso8601) before it opened \(opened.iso8601)")
            return nil
        }
        let aliasList = (aliases ?? "").split(separator: ";").compactMap { TextNormalizer.clean(String($0)) }
        return .store(
            StoreRecord(
                code: code, name: name ?? "", region: region, status: status ?? "active", aliases: aliasList,
                opened: opened, closed: closed))
    }

    static func text(_ cell: Cell) -> Result<String, NormalizationFailure> {
        TextNormalizer.text(of: cell).map { .success($0) } ?? .failure(.missing)
    }

    static func storeCode(_ cell: Cell) -> Result<String, NormalizationFailure> {
        switch cell {
        case .number(let value) where value >= 0 && value == value.rounded() && value < 1e9:
            return .success(StoreDirectory.code(Int(value)))
        case .string:
            guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
            guard let code = StoreDirectory.leadingCode(text), text.allSatisfy({ $0.isNumber || $0 == "." }) else {
                return .failure(.invalid("is not a store code (expected digits, such as 08)"))
            }
            return .success(code)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a store code (expected digits, such as 08)"))
        }
    }

    /// `active` or `closed`, in any case.
    static func storeStatus(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
        let status = text.lowercased()
        guard StoreRecord.statuses.contains(status) else {
            return .failure(
                .invalid("is not a store status (expected \(StoreRecord.statuses.joined(separator: " or ")))"))
        }
        return .success(status)
    }
}
