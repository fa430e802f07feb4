import CivilCalendar
import Feeds
import Warehouse

/// Whether a feed is current (SPEC section 15).
public enum FreshnessVerdict: String, Sendable {
    case ok, late, missing
}

/// How many days may pass after a feed's last date before it is late.
public struct FreshnessPolicy: Sendable, Equatable {
    /// Per-feed thresholds from the config's `[freshness]` table.
    public var thresholds: [FeedID: Int]
    /// The feeds judged at all (`[feeds] enabled`, SPEC section 26): a feed the company never had
    /// is neither late nor missing.
    public var enabledFeeds: Set<FeedID>

    /// The feeds the configuration makes weekly beyond the store-week tables' own (a weekly sales
    /// export, SPEC section 26).
    public var weeklyFeeds: Set<FeedID>

    public init(
        thresholds: [FeedID: Int] = [:], enabledFeeds: Set<FeedID> = Set(FeedID.dataFeeds),
        weeklyFeeds: Set<FeedID> = []
    ) {
        self.thresholds = thresholds
        self.enabledFeeds = enabledFeeds
        self.weeklyFeeds = weeklyFeeds
    }

    /// Daily feeds are late after 2 days, weekly ones after 9, unless configured.
    public func threshold(for feed: FeedID) -> Int {
        thresholds[feed] ?? (feed.cadence == .weekly || weeklyFeeds.contains(feed) ? 9 : 2)
    }

    /// Feeds judged once by their latest date over all stores: they have no rows on a quiet day.
    public static let eventFeeds = Set(FeedCatalog.all.filter(\.rows.countsEvents).map(\.id))
}

/// One line of `ddkpi status`: a feed, for one active store or (event feeds) for all stores.
public struct FreshnessRow: Sendable, Equatable {
    public var feed: FeedID
    /// A store code, or `ALL` for an event feed.
    public var scope: String
    public var lastDate: CivilDate?
    /// As-of day − last date; `nil` when the feed never had a row.
    public var daysSince: Int?
    public var threshold: Int
    public var verdict: FreshnessVerdict
}

/// Feed freshness as of a day, for the nightly cron's alerting.
public struct FreshnessReport: Sendable {
    public var asOf: CivilDate
    public var rows: [FreshnessRow]

    /// Whether any feed is late or missing (exit code 4).
    public var needsAttention: Bool { rows.contains { $0.verdict != .ok } }

    /// Judges every enabled feed: per active store for the per-store feeds (store order), once
    /// for all stores for event feeds, in SPEC's feed order.
    public init(
        asOf: CivilDate, stores: [StoreRecord], lastDates: [FeedID: [String: CivilDate]], policy: FreshnessPolicy
    ) {
        self.asOf = asOf
        let active = stores.filter { $0.status == "active" }.map(\.code).sorted()
        rows = FeedID.dataFeeds.filter(policy.enabledFeeds.contains).flatMap { feed -> [FreshnessRow] in
            let dates = lastDates[feed] ?? [:]
            let threshold = policy.threshold(for: feed)
            func row(_ scope: String, _ last: CivilDate?) -> FreshnessRow {
                let days = last.map { asOf.daysSinceEpoch - $0.daysSinceEpoch }
                let verdict: FreshnessVerdict = days.map { $0 > threshold ? .late : .ok } ?? .missing
                return FreshnessRow(
                    feed: feed, scope: scope, lastDate: last, daysSince: days, threshold: threshold, verdict: verdict)
            }
            if FreshnessPolicy.eventFeeds.contains(feed) { return [row(ScopeID.all.description, dates.values.max())] }
            return active.map { row($0, dates[$0]) }
        }
    }
}
