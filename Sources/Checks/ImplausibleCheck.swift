import CivilCalendar
import Feeds

/// `implausible` (SPEC section 18): negative transactions or items, a percent outside 0–100,
/// UPT over 20, an average sale over $100,000 — one alarm per store-day naming every measure.
enum ImplausibleCheck {
    static let maximumUPT: Int64 = 20
    static let maximumAverageSaleCents: Int64 = 10_000_000
    /// 100 % in the stored unit of percents, millionths of a whole (SPEC section 4).
    static let wholeMillionths: Int64 = 1_000_000
    /// Millionths of a whole per percent.
    static let millionthsPerPercent = 10_000.0

    /// A rule broken: the measure, its value as shown, its limit, the score, and whether the
    /// value and limit are percents.
    private struct Breach {
        let metric: String
        let value: Double
        let limit: Double
        let score: Double
        var isPercent = false

        /// The breach as the alarm's note lists it.
        var text: String {
            isPercent
                ? "\(metric) \(ImplausibleCheck.percent(value)) % (limit \(ImplausibleCheck.percent(limit)) %)"
                : "\(metric) \(ImplausibleCheck.format(value)) (limit \(ImplausibleCheck.format(limit)))"
        }
    }

    static func alarms(_ series: StoreSeries) -> [Alarm] {
        series.sales.indices.compactMap { index in
            guard series.isJudged(index), let day = series.sales[index] else { return nil }
            return alarm(store: series.store, day: series.first + index, row: day)
        }
    }

    /// Whether a row breaks no rule: `breaches`' rules, tested without building the breaches.
    /// The ingest gate's scan asks it of every row, so it builds nothing
    /// (docs/decisions.md#where-the-ingest-gates-cost-goes-spec-section-18).
    static func isPlausible(_ row: SalesDay) -> Bool {
        if let transactions = row.transactions {
            if transactions < 0 { return false }
            if transactions > 0 {
                if let items = row.items, items > maximumUPT * transactions { return false }
                if row.cents > maximumAverageSaleCents * transactions { return false }
            }
        }
        if let items = row.items, items < 0 { return false }
        return isWhole(row.ccpMillionths) && isWhole(row.gpMillionths)
    }

    /// Whether a percent (in millionths of a whole; `nil` unknown) is possible: neither below
    /// nothing nor above the whole.
    private static func isWhole(_ millionths: Int64?) -> Bool {
        guard let millionths else { return true }
        return millionths >= 0 && millionths <= wholeMillionths
    }

    /// The alarm of one store-day's row (`day` in days since the epoch), when it breaks a rule.
    static func alarm(store: String, day: Int, row: SalesDay) -> Alarm? {
        let breaches = breaches(row)
        guard let first = breaches.first else { return nil }
        let date = CivilDate(daysSinceEpoch: day)
        return Alarm(
            kind: .implausible, feed: .salesAudit, store: store, days: DateRange(start: date, end: date),
            metric: breaches.map(\.metric).joined(separator: ","), value: first.value, expected: first.limit,
            score: first.score, run: row.run,
            note: breaches.map(\.text).joined(separator: "; "))
    }

    private static func breaches(_ day: SalesDay) -> [Breach] {
        var found: [Breach] = []
        // An unknown count (`nil`) breaks no rule, and no ratio is worked out over it.
        if let transactions = day.transactions, transactions < 0 {
            found.append(Breach(metric: "totalTransactions", value: Double(transactions), limit: 0, score: 1))
        }
        if let items = day.items, items < 0 {
            found.append(Breach(metric: "totalItems", value: Double(items), limit: 0, score: 1))
        }
        if let breach = percentBreach("ccpPct", day.ccpMillionths) { found.append(breach) }
        if let breach = percentBreach("gpPct", day.gpMillionths) { found.append(breach) }
        if let transactions = day.transactions, transactions > 0, let items = day.items,
            items > maximumUPT * transactions
        {
            let upt = Double(items) / Double(transactions)
            found.append(Breach(metric: "upt", value: upt, limit: Double(maximumUPT), score: upt / Double(maximumUPT)))
        }
        if let transactions = day.transactions, transactions > 0, day.cents > maximumAverageSaleCents * transactions {
            let average = Double(day.cents) / Double(transactions) / 100
            let limit = Double(maximumAverageSaleCents) / 100
            found.append(Breach(metric: "avgAds", value: average, limit: limit, score: average / limit))
        }
        return found
    }

    /// A percent (in millionths of a whole) outside 0–100 %, its value and limit in percents.
    private static func percentBreach(_ metric: String, _ millionths: Int64?) -> Breach? {
        guard let millionths, millionths < 0 || millionths > wholeMillionths else { return nil }
        let percent = Double(millionths) / millionthsPerPercent
        return Breach(
            metric: metric, value: percent, limit: millionths < 0 ? 0 : 100, score: millionths < 0 ? 1 : percent / 100,
            isPercent: true)
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(format: "%.2f", value)
    }

    /// A percent worked out from millionths, with every decimal it has (at most four).
    private static func percent(_ value: Double) -> String {
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
