/// The ledger status of an ingest attempt.
public enum IngestStatus: String, Sendable, Codable {
    case ok, failed, duplicate
    /// The checks found alarms and `[check] on_ingest = "hold"`: nothing was written.
    case held
}
