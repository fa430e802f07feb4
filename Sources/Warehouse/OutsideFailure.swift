/// A failure whose cause lies outside the file being ingested (SPEC section 5): the file stays
/// where it is for the next run, and the run stops.
public enum OutsideFailure: String, Sendable, Codable {
    /// The database server was lost or refused the work (exit 2).
    case server
    /// The disk was full or failed, a lock was held too long, or a deadlock (exit 1).
    case environment
}
