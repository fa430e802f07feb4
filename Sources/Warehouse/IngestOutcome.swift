import Checks
import Feeds

/// What happened to one file.
public struct IngestOutcome: Sendable {
    public var path: String
    public var status: IngestStatus
    public var feed: FeedID?
    /// The ledger row (`nil` for a dry run).
    public var runID: Int64?
    public var read = 0
    public var skipped = 0
    public var rejected = 0
    public var counts = UpsertCounts()
    public var rejects: [Reject] = []
    public var warnings: [String] = []
    public var error: String?
    public var dryRun = false
    /// The sheet the records were read from (the file's name for a CSV).
    public var sheet: String?
    /// Set when the file failed for a reason outside itself (SPEC section 5): it is not to be
    /// quarantined, and the run stops.
    public var outsideFailure: OutsideFailure?
    /// The alarms the checks found on the store-days the file touched (SPEC section 18).
    public var alarms: [Alarm] = []
    /// Whether the file was committed despite alarms because of `--accept-alarms`.
    public var alarmsAccepted = false
}
