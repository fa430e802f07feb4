import Checks

/// How one ingest behaves.
public struct IngestOptions: Sendable {
    /// Re-ingest a file whose SHA-256 already ingested `ok`.
    public var force = false
    /// Read and count everything, write nothing (not even the ledger).
    public var dryRun = false
    /// The largest share of rejected rows a file may have and still be written (default 5 %).
    public var rejectThreshold = 0.05
    /// The wrong-data checks run on the store-days the file touched, in its transaction (SPEC
    /// section 18); `nil` runs none.
    public var checks: CheckSettings? = CheckSettings()
    /// Commit a file the checks would hold (`--accept-alarms`); the ledger records it.
    public var acceptAlarms = false

    public init(
        force: Bool = false, dryRun: Bool = false, rejectThreshold: Double = 0.05,
        checks: CheckSettings? = CheckSettings(), acceptAlarms: Bool = false
    ) {
        self.force = force
        self.dryRun = dryRun
        self.rejectThreshold = rejectThreshold
        self.checks = checks
        self.acceptAlarms = acceptAlarms
    }
}
