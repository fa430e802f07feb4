import SheetStream

/// Turns cells into typed values per SPEC section 4, or says why it cannot (the reason goes
/// into a reject after the value seen: `"12,3x4" is not a number`).
public enum ValueNormalizer {
    /// Money: numbers, or text like `$1,234.56`, `(1,234.56)` and `-1,234.56` (both negative).
    public static func money(_ cell: Cell) -> Result<Double, NormalizationFailure> {
        switch cell {
        case .number(let value): return .success(value)
        case .string(let raw):
            guard var text = TextNormalizer.clean(raw) else { return .failure(.missing) }
            var negative = false
            if text.hasPrefix("(") && text.hasSuffix(")") {
                negative = true
                text = String(text.dropFirst().dropLast())
            }
            text = String(text.filter { $0 != "$" && $0 != "," && $0 != " " })
            if text.hasPrefix("-") {
                negative.toggle()
                text.removeFirst()
            }
            guard !text.isEmpty, !text.hasPrefix("-"), let value = Double(text), value.isFinite else {
                return .failure(.invalid("is not a number"))
            }
            return .success(negative ? -value : value)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a number"))
        }
    }

    /// A whole count (transactions, items, reviews): `12`, `12.0`, `"1,234"`.
    public static func count(_ cell: Cell) -> Result<Int, NormalizationFailure> {
        money(cell).flatMap { value in
            guard value == value.rounded(), abs(value) < 1e15 else {
                return .failure(.invalid("is not a whole number"))
            }
            return .success(Int(value))
        }
    }

    /// A percent as a fraction: `0.452`, `"45.2%"` and `45.2` (above 1.5, read as points) all give 0.452.
    ///
    /// Points are divided by 100 and rounded to 12 decimals, so `45.2` and `0.452` store the same
    /// double (45.2 / 100 alone is one ulp off) and a re-sent file in the other form is unchanged.
    public static func percent(_ cell: Cell) -> Result<Double, NormalizationFailure> {
        let fromPoints = { (points: Double) in (points / 100 * 1e12).rounded() / 1e12 }
        if case .string(let raw) = cell, let text = TextNormalizer.clean(raw), text.hasSuffix("%") {
            return money(.string(String(text.dropLast()))).map(fromPoints)
                .mapError { _ in .invalid("is not a percent") }
        }
        return money(cell).map { abs($0) > 1.5 ? fromPoints($0) : $0 }.mapError { failure in
            if case .invalid = failure { return .invalid("is not a percent") }
            return failure
        }
    }

    /// A date: a date cell, an Excel serial in the workbook's date system, or text in one of
    /// SPEC's forms (see `DateText`).
    public static func date(_ cell: Cell, parser: DateText, dateSystem: ExcelDateSystem) -> Result<CivilDate, NormalizationFailure> {
        switch cell {
        case .date(let value) where !value.isTimeOnly: return .success(value.civil)
        case .number(let serial):
            guard serial >= 1, let value = dateSystem.dateTime(fromSerial: serial) else {
                return .failure(.invalid("is not a date serial"))
            }
            return .success(value.civil)
        case .string(let raw):
            guard let text = TextNormalizer.clean(raw) else { return .failure(.missing) }
            guard let value = parser.parse(text) else {
                return .failure(.invalid(parser.dayFirst ? "is not a date (expected YYYY-MM-DD, D/M/YYYY, D-Mon-YYYY or Mon D, YYYY)" : "is not a date (expected YYYY-MM-DD, M/D/YYYY, D-Mon-YYYY or Mon D, YYYY)"))
            }
            return .success(value.civil)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a date"))
        }
    }
}

/// Why a cell could not be normalised.
public enum NormalizationFailure: Error, Equatable, Sendable {
    /// The cell is empty.
    case missing
    /// The cell holds something else; the text completes `"value" …`.
    case invalid(String)

    public var reason: String {
        switch self {
        case .missing: return "is empty, but the field is required"
        case .invalid(let reason): return reason
        }
    }
}
