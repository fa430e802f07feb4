import CivilCalendar
import SheetStream

/// Turns cells into typed values per SPEC section 4, or says why it cannot (the reason goes
/// into a reject after the value seen: `"12,3x4" is not a number`).
public enum ValueNormalizer {
    /// A number: a numeric cell, or text like `$1,234.56`, `(1,234.56)` and `-1,234.56` (both negative).
    public static func number(_ cell: Cell) -> Result<Double, NormalizationFailure> {
        switch cell {
        case .number(let value): return .success(value)
        case .string(let raw):
            guard let (negative, magnitude) = signedMagnitude(raw) else { return .failure(.missing) }
            guard isDecimal(magnitude), let value = Double(magnitude) else {
                return .failure(.invalid("is not a number"))
            }
            return .success(negative ? -value : value)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a number"))
        }
    }

    /// Money in integer cents (SPEC section 4): numbers, or text like `$1,234.56`, `(1,234.56)`
    /// and `-1,234.56` (both negative), rounded half away from zero on their decimal digits.
    public static func money(_ cell: Cell) -> Result<Int64, NormalizationFailure> {
        switch cell {
        case .number(let value):
            return FixedPoint.scaled(value, digits: 2).map { .success($0) } ?? .failure(.invalid(outOfRange))
        case .string(let raw):
            guard let (negative, magnitude) = signedMagnitude(raw) else { return .failure(.missing) }
            guard let cents = FixedPoint.scaled(text: magnitude, digits: 2) else {
                return .failure(.invalid(isDecimal(magnitude) ? outOfRange : "is not a number"))
            }
            return .success(negative ? -cents : cents)
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a number"))
        }
    }

    /// A yes-or-no flag: a boolean cell, 1 or 0, or the text true/false, Y/N, yes/no (any case).
    public static func flag(_ cell: Cell) -> Result<Bool, NormalizationFailure> {
        switch cell {
        case .bool(let value): return .success(value)
        case .number(1): return .success(true)
        case .number(0): return .success(false)
        case .string:
            guard let text = TextNormalizer.text(of: cell)?.lowercased() else { return .failure(.missing) }
            if ["1", "true", "y", "yes"].contains(text) { return .success(true) }
            if ["0", "false", "n", "no"].contains(text) { return .success(false) }
            return .failure(.invalid("is not a yes-or-no flag (expected 1/0, true/false, Y/N or yes/no)"))
        case .empty: return .failure(.missing)
        default: return .failure(.invalid("is not a yes-or-no flag (expected 1/0, true/false, Y/N or yes/no)"))
        }
    }

    /// Whether text is a finite decimal number (`Double` alone would also take `nan`, `inf` and hexadecimal).
    private static func isDecimal(_ text: String) -> Bool {
        text.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) } && Double(text)?.isFinite == true
    }

    private static let outOfRange = "is out of range (at most 10,000,000,000,000 in magnitude)"

    /// A whole count (transactions, items, reviews): `12`, `12.0`, `"1,234"`.
    public static func count(_ cell: Cell) -> Result<Int, NormalizationFailure> {
        // Plain digits (nearly every CSV count) need no floating point.
        if case .string(let raw) = cell,
            let digits = raw.withUTF8Bytes({ ASCIIDigits.value(of: $0, maxCount: 15) })
        {
            return .success(digits)
        }
        return number(cell).flatMap { value in
            guard value == value.rounded(.towardZero), abs(value) < 1e15 else {
                return .failure(.invalid("is not a whole number"))
            }
            return .success(Int(value))
        }
    }

    /// A percent in integer millionths of one (SPEC section 4): `0.452`, `"45.2%"` and `45.2`
    /// (above 1.5, read as points) all give 452000.
    public static func percent(_ cell: Cell) -> Result<Int64, NormalizationFailure> {
        let notPercent = { NormalizationFailure.invalid("is not a percent") }
        switch cell {
        case .number(let value):
            let digits = abs(value) > 1.5 ? 4 : 6
            return FixedPoint.scaled(value, digits: digits).map { .success($0) } ?? .failure(notPercent())
        case .string(let raw):
            guard var text = TextNormalizer.clean(raw) else { return .failure(.missing) }
            let points = text.hasSuffix("%")
            if points { text.removeLast() }
            guard let (negative, magnitude) = signedMagnitude(text) else { return .failure(notPercent()) }
            var millionths =
                points ? FixedPoint.scaled(text: magnitude, digits: 4) : FixedPoint.scaled(text: magnitude, digits: 6)
            // Above 1.5 by the value itself, as a number cell is judged: "1.5000001" rounds to
            // 1,500,000 millionths, yet it is points.
            if !points, let fraction = millionths,
                fraction > 1_500_000 || (fraction == 1_500_000 && (Double(magnitude) ?? 0) > 1.5)
            {
                millionths = FixedPoint.scaled(text: magnitude, digits: 4)
            }
            guard let millionths else { return .failure(notPercent()) }
            return .success(negative ? -millionths : millionths)
        case .empty: return .failure(.missing)
        default: return .failure(notPercent())
        }
    }

    /// Text of a number split into its sign and its digits: `$`, `,` and spaces dropped,
    /// `(…)` and a leading `-` both negative; `nil` when the text is empty.
    private static func signedMagnitude(_ raw: String) -> (negative: Bool, magnitude: String)? {
        // The common case, plain `-?[0-9.]+`, without copying or cleaning.
        let plain = raw.withUTF8Bytes { utf8 in
            !utf8.isEmpty
                && utf8.indices.allSatisfy { index in
                    let byte = utf8[index]
                    return byte &- UInt8(ascii: "0") < 10 || byte == UInt8(ascii: ".")
                        || (index == 0 && byte == UInt8(ascii: "-"))
                }
        }
        if plain {
            let negative = raw.utf8.first == UInt8(ascii: "-")
            return (negative, negative ? String(raw.dropFirst()) : raw)
        }
        guard var text = TextNormalizer.clean(raw) else { return nil }
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
        if text.hasPrefix("-") || text.hasPrefix("+") { text = "x" }
        return (negative, text)
    }

    /// A calendar month (its first day): a date cell or serial (its month), or text `YYYY-MM`,
    /// `Jul 2025`, `July 2025`, `7/2025`.
    public static func month(_ cell: Cell, parser: DateText, dateSystem: ExcelDateSystem) -> Result<
        CivilDate, NormalizationFailure
    > {
        if case .string(let raw) = cell, let text = TextNormalizer.clean(raw), let first = parser.parseMonth(text) {
            return .success(first)
        }
        return date(cell, parser: parser, dateSystem: dateSystem)
            .map { CivilDate(year: $0.year, month: $0.month, day: 1) }
            .mapError { failure in
                if case .invalid = failure { return .invalid("is not a month (expected YYYY-MM, Jul 2025 or 7/2025)") }
                return failure
            }
    }

    /// An identifier compared as text: trimmed text, or a number in shortest form (`42`, never `42.0`).
    public static func identifier(_ cell: Cell) -> Result<String, NormalizationFailure> {
        TextNormalizer.text(of: cell).map { .success($0) } ?? .failure(.missing)
    }

    /// A name used as a key: trimmed, runs of white space collapsed to one space, case kept.
    public static func key(_ cell: Cell) -> Result<String, NormalizationFailure> {
        guard let text = TextNormalizer.text(of: cell) else { return .failure(.missing) }
        // Nearly every name is ASCII with single spaces already.
        var previousWasSpace = false
        let plain = text.utf8.allSatisfy { byte in
            defer { previousWasSpace = byte == UInt8(ascii: " ") }
            return byte >= 0x21 && byte < 0x7F || (byte == UInt8(ascii: " ") && !previousWasSpace)
        }
        if plain { return .success(text) }
        return .success(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    /// A date: a date cell, an Excel serial in the workbook's date system, or text in one of
    /// SPEC's forms (see `DateText`).
    public static func date(_ cell: Cell, parser: DateText, dateSystem: ExcelDateSystem) -> Result<
        CivilDate, NormalizationFailure
    > {
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
                return .failure(
                    .invalid(
                        parser.dayFirst
                            ? "is not a date (expected YYYY-MM-DD, D/M/YYYY, D-Mon-YYYY or Mon D, YYYY)"
                            : "is not a date (expected YYYY-MM-DD, M/D/YYYY, D-Mon-YYYY or Mon D, YYYY)"))
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
