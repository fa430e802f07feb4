import SheetStream

/// The known stores, and how export cells map to their codes (SPEC section 4).
///
/// Codes are strings of at least two digits: `8`, `8.0`, `"08"`, `Store 08`, `#8`, `08 - Natick`
/// and `Store 8 Natick` all give `08`. Cells without a leading number are looked up among the
/// stores' names and aliases, case-insensitively with runs of spaces collapsed (and, failing
/// that, by the part after the last ` - `, as in `Hannoush Jewelers - Natick`). An unknown store is
/// never invented: it is a failure the caller turns into a reject.
public struct StoreDirectory: Sendable {
    private let codes: Set<String>
    private let codesByName: [String: String]

    public init(stores: [StoreRecord]) {
        codes = Set(stores.map(\.code))
        var names: [String: String] = [:]
        for store in stores {
            for name in [store.name] + store.aliases { names[TextNormalizer.matchKey(name)] = store.code }
        }
        codesByName = names
    }

    public var isEmpty: Bool { codes.isEmpty }

    /// The store code a cell names.
    public func resolve(_ cell: Cell) -> Result<String, NormalizationFailure> {
        switch cell {
        case .number(let value):
            guard value >= 0, value == value.rounded(), value < 1e9 else {
                return .failure(.invalid("is not a store code"))
            }
            return known(Self.code(Int(value)))
        case .string(let raw):
            guard let text = TextNormalizer.clean(raw) else { return .failure(.missing) }
            if let code = Self.leadingCode(text) { return known(code) }
            let key = TextNormalizer.matchKey(text)
            if let code = codesByName[key] { return .success(code) }
            if let dash = key.ranges(of: " - ").last, let code = codesByName[String(key[dash.upperBound...])] {
                return .success(code)
            }
            return .failure(.invalid("is not a known store name or alias"))
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a store"))
        }
    }

    /// A code in canonical form: at least two digits.
    public static func code(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }

    /// The code written at the start of `text` (after an optional `Store`, `Store #`, `#`, `No.`),
    /// when a number comes first; `8.0` is read as 8.
    public static func leadingCode(_ text: String) -> String? {
        var rest = Substring(text)
        for prefix in ["store no.", "store no", "store #", "store", "no.", "#"]
        where rest.lowercased().hasPrefix(prefix) {
            rest = rest.dropFirst(prefix.count).drop { $0 == " " }
            break
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 9, let number = Int(digits) else { return nil }
        var after = rest.dropFirst(digits.count)
        if after.hasPrefix(".0") && !(after.dropFirst(2).first?.isNumber ?? false) { after = after.dropFirst(2) }
        guard after.isEmpty || after.first == " " || after.first == "-" || after.first == ":" else { return nil }
        return code(number)
    }

    private func known(_ code: String) -> Result<String, NormalizationFailure> {
        codes.contains(code) ? .success(code) : .failure(.invalid("is not a known store code (\(code))"))
    }
}
