import KPI

/// How report numbers are written.
public enum NumberText {
    /// Plain numbers for CSV and JSON: shortest round-trip, no separators, integers without `.0`.
    public static func plain(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return value.description
    }

    /// Money for CSV and JSON: rounded to cents, with at most two decimals and no binary noise
    /// (`251137.91`, `12.5`, `3`).
    public static func plainMoney(_ value: Double) -> String { plain(value, places: 2) }

    /// `value` rounded half away from zero to `places` decimals, written with at most that many
    /// and no trailing zeros (`419833.05`, `12.5`, `3`); shortest round-trip form when too large.
    static func plain(_ value: Double, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard value.isFinite, abs(scaled) < 1e17 else { return plain(value) }
        let magnitude = Int64(abs(scaled))
        var text = (scaled < 0 ? "-" : "") + String(magnitude / scale)
        var fraction = magnitude % scale
        guard fraction != 0 else { return text }
        var digits = places
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let written = String(fraction)
        text += "." + String(repeating: "0", count: digits - written.count) + written
        return text
    }

    /// A metric's actual-like value (actual, LY, projection) for CSV and JSON: money metrics
    /// as money, everything else in shortest round-trip form.
    public static func plain(_ value: Double, _ format: MetricFormat) -> String {
        format == .money ? plainMoney(value) : plain(value)
    }

    /// `value` as `amount` prints it, as a number: what a workbook cell holds, so that its
    /// value and the CSV's are the same (`419833.05000000005` → `419833.05`).
    public static func rounded(_ value: Double, _ format: MetricFormat) -> Double {
        let places: Double
        switch format {
        case .money: places = 100
        case .count: places = 1_000_000
        case .moneyWithCents, .decimal, .percent: return value
        }
        let scaled = (value * places).rounded()
        // Below 2^53 the quotient of two exact doubles is the double nearest the decimal.
        return abs(scaled) < 9_007_199_254_740_992 ? scaled / places : value
    }

    /// An amount of a metric (actual, target, LY, projection, what it takes) as a report's CSV
    /// and JSON print it (SPEC section 26): money to the cent, a count to at most six decimals,
    /// a ratio or percentage in shortest round-trip form.
    public static func amount(_ value: Double, _ format: MetricFormat) -> String {
        switch format {
        case .money: return plainMoney(value)
        case .count: return plain(value, places: 6)
        case .moneyWithCents, .decimal, .percent: return plain(value)
        }
    }

    /// A value for people, by the metric's format: `$12,345`, `$331.25`, `1,234`, `1.52`, `45.2%`; `—` when there is none.
    public static func formatted(_ value: Double?, _ format: MetricFormat) -> String {
        guard let value, value.isFinite else { return "—" }
        switch format {
        case .money: return money(value, decimals: 0)
        case .moneyWithCents: return money(value, decimals: 2)
        case .count: return number(value, decimals: 0)
        case .decimal: return number(value, decimals: 2)
        case .percent: return percent(value, decimals: 1)
        }
    }

    /// A target for people: as `formatted(_:_:)`, but a count target that is not whole (a
    /// prorated one) keeps a decimal (`1.5`), so it never reads `1` beside a `+50%`.
    public static func target(_ value: Double?, _ format: MetricFormat) -> String {
        guard format == .count, let value, value.isFinite, value != value.rounded() else {
            return formatted(value, format)
        }
        return number(value, decimals: 1)
    }

    /// A metric's actual for people: `no data` when its feed has none in the period (SPEC section 7),
    /// else as `formatted(_:_:)` writes it, with `to 06-10` when its feed's data ends before the
    /// period's as-of day.
    public static func actual(_ value: MetricValue, _ format: MetricFormat) -> String {
        if value.hasNoData { return noData }
        let actual = formatted(value.actual, format)
        guard let through = value.dataThrough else { return actual }
        return actual + " to " + String(through.iso8601.dropFirst(5))
    }

    /// What a metric whose feed has no data in the period shows instead of an actual.
    public static let noData = "no data"

    /// A change as text people read without colour: `▲ +4.1%`, `▼ −3.0%`, `0.0%`; `—` when there is none.
    public static func change(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "—" }
        let points = (value * 1000).rounded() / 10
        if points > 0 { return "▲ +" + percent(points / 100, decimals: 1) }
        if points < 0 { return "▼ −" + percent(-points / 100, decimals: 1) }
        return percent(0, decimals: 1)
    }

    /// Money in the current `NumberStyle`: `$1,234`, `−$12.50`, `1.234 €`.
    static func money(_ value: Double, decimals: Int) -> String {
        let style = NumberStyle.current
        guard style == .standard else { return style.money(value, decimals: decimals) }
        return value < 0 ? "−$" + grouped(-value, decimals: decimals) : "$" + grouped(value, decimals: decimals)
    }

    /// An axis title of money: `Sales ($)`, `Sales (€)`.
    static func moneyTitle(_ name: String) -> String {
        let style = NumberStyle.current
        return style == .standard ? name + " ($)" : name + " (" + style.symbol + ")"
    }

    /// A number with grouping and fixed decimals in the current `NumberStyle`: `1,234.5`, `1.234,5`.
    static func number(_ value: Double, decimals: Int) -> String {
        let style = NumberStyle.current
        return style == .standard ? grouped(value, decimals: decimals) : style.number(value, decimals: decimals)
    }

    /// A fraction as a percent in the current `NumberStyle`: `45.2%`, `45,2 %`.
    static func percent(_ fraction: Double, decimals: Int) -> String {
        let style = NumberStyle.current
        guard style == .standard else { return style.percent(fraction, decimals: decimals) }
        return grouped(fraction * 100, decimals: decimals) + "%"
    }

    /// Thousands separators and a fixed number of decimals (half away from zero), as `en-US`
    /// writes them; other locales' numbers are Foundation's (`NumberStyle`).
    static func grouped(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        var bytes: [UInt8] = value < 0 && scaled != 0 ? [UInt8(ascii: "-")] : []
        let digits = Array(String(whole).utf8)
        bytes.reserveCapacity(digits.count * 4 / 3 + decimals + 2)
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(digit)
        }
        if decimals > 0 {
            let fractionDigits = Array(String(fraction).utf8)
            bytes.append(UInt8(ascii: "."))
            bytes += repeatElement(UInt8(ascii: "0"), count: decimals - fractionDigits.count)
            bytes += fractionDigits
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
