import Foundation

/// How numbers are written for people: the currency and the locale that config's `currency` and
/// `locale` name (SPEC section 26); CSV and JSON never use it.
public struct NumberStyle: Sendable, Equatable {
    /// An ISO 4217 code: `USD`, `EUR`.
    public let currency: String
    /// A locale identifier: `en-US`, `de-DE`.
    public let locale: String

    /// US dollars written the American way: the style of every golden report.
    public static let standard = NumberStyle(currency: "USD", locale: "en-US", checked: ())

    private init(currency: String, locale: String, checked: Void) {
        self.currency = currency
        self.locale = locale
    }

    /// The style of `currency` and `locale`, or an error naming the value that is not an ISO 4217
    /// code or a locale this platform knows.
    public init(currency: String, locale: String) throws {
        guard Locale.commonISOCurrencyCodes.contains(currency) else {
            throw DocumentError("currency = \"\(currency)\": expected an ISO 4217 code such as USD or EUR")
        }
        guard Locale.availableIdentifiers.contains(locale.replacingOccurrences(of: "-", with: "_")) else {
            throw DocumentError("locale = \"\(locale)\": expected a locale such as en-US or de-DE")
        }
        self.init(currency: currency, locale: locale, checked: ())
    }

    /// Money with `decimals` decimals, the sign first: `1.234,56 €`, `−£1,234`.
    func money(_ value: Double, decimals: Int) -> String {
        typographicMinus(
            value.formatted(
                .currency(code: currency).precision(.fractionLength(decimals)).rounded(rule: Self.rounding)
                    .locale(Locale(identifier: locale))))
    }

    /// A number with grouping and `decimals` decimals: `12.345,3`.
    func number(_ value: Double, decimals: Int) -> String {
        typographicMinus(
            value.formatted(
                .number.precision(.fractionLength(decimals)).rounded(rule: Self.rounding)
                    .locale(Locale(identifier: locale))))
    }

    /// A fraction as a percent with `decimals` decimals: `45,2 %`.
    func percent(_ fraction: Double, decimals: Int) -> String {
        typographicMinus(
            fraction.formatted(
                .percent.precision(.fractionLength(decimals)).rounded(rule: Self.rounding)
                    .locale(Locale(identifier: locale))))
    }

    /// The currency's symbol in the locale: `€`, `£`, `CHF`.
    var symbol: String { money(1, decimals: 0).filter { $0 != "1" && !$0.isWhitespace && $0 != "\"" } }

    /// The workbook number format of money with `decimals` decimals: the locale's symbol where
    /// the locale puts it (`"€"` after the number in `de-DE`), separators as Excel shows them.
    func workbookMoneyFormat(decimals: Int) -> String {
        let number = decimals > 0 ? "#,##0." + String(repeating: "0", count: decimals) : "#,##0"
        let quoted = "\"" + symbol + "\""
        return money(1, decimals: 0).hasPrefix("1") ? number + " " + quoted : quoted + number
    }

    /// Halves away from zero, as the `en-US` writer rounds.
    private static let rounding = FloatingPointRoundingRule.toNearestOrAwayFromZero

    /// The text with its hyphen-minus written as the minus sign the reports use (`−`).
    private func typographicMinus(_ text: String?) -> String {
        (text ?? "").replacingOccurrences(of: "-", with: "−")
    }
}

extension NumberStyle {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var selected = NumberStyle.standard

    /// The style reports of this process use: `standard` until a command sets its config's.
    public static var current: NumberStyle { lock.withLock { selected } }

    /// Makes `style` the one reports of this process use.
    public static func use(_ style: NumberStyle) { lock.withLock { selected = style } }
}
