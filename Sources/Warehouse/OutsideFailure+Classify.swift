import Foundation
import GRDB
import PostgresClient

extension OutsideFailure {
    /// The outside cause of an ingest error, or `nil` when the file itself is to blame (its
    /// contents, an unknown store, a reject rate): PostgreSQL lost or refusing (no SQLSTATE, or
    /// classes 08 connection, 25 a read-only or otherwise unusable transaction, 53 insufficient
    /// resources, 57 operator intervention, and 42501 a role without the privilege) is the
    /// server's; a deadlock or lock (40, 55), a full or failing disk, or SQLite busy, locked,
    /// full, I/O or read-only errors are the environment's; and with `file`, a file none of whose
    /// rows had been read, any database error that does not name it is outside it too.
    public init?(classifying error: Error, beforeTheFirstRowOf file: String? = nil) {
        if let cause = Self(classifyingByCode: error) {
            self = cause
            return
        }
        guard let file else { return nil }
        let message = "\(error)"
        let name = URL(fileURLWithPath: file).lastPathComponent
        guard !message.contains(file), name.isEmpty || !message.contains(name) else { return nil }
        switch error {
        case is PostgresError: self = .server
        case is DatabaseError: self = .environment
        default: return nil
        }
    }

    /// The outside cause an error's SQLSTATE or SQLite result code names, wherever it was raised.
    private init?(classifyingByCode error: Error) {
        switch error {
        case let postgres as PostgresError:
            guard let state = postgres.sqlState else {
                self = .server
                return
            }
            if state == "42501" {
                self = .server
                return
            }
            switch state.prefix(2) {
            case "08", "25", "53", "57": self = .server
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
