import GRDB
import PostgresClient

extension OutsideFailure {
    /// The outside cause of an ingest error, or `nil` when the file itself is to blame (its
    /// contents, an unknown store, a reject rate): PostgreSQL lost or refusing (no SQLSTATE, or
    /// classes 08 connection, 53 insufficient resources, 57 operator intervention) is the
    /// server's; a deadlock or lock (40, 55), a full or failing disk, or SQLite busy, locked,
    /// full, I/O or read-only errors are the environment's.
    init?(classifying error: Error) {
        switch error {
        case let postgres as PostgresError:
            guard let state = postgres.sqlState else {
                self = .server
                return
            }
            switch state.prefix(2) {
            case "08", "53", "57": self = .server
            case "40", "55", "58": self = .environment
            default: return nil
            }
        case let sqlite as DatabaseError:
            switch sqlite.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_READONLY, .SQLITE_NOMEM,
                .SQLITE_CANTOPEN,
                .SQLITE_PROTOCOL:
                self = .environment
            default: return nil
            }
        default: return nil
        }
    }
}
