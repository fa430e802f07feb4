import Foundation
import PostgresClient

/// Where a warehouse lives: a SQLite file, or a PostgreSQL server named by a URL
/// (`postgresql://user:password@host:port/dbname?sslmode=…`, SPEC section 14).
public enum DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)

    /// A URL with the `postgresql://` or `postgres://` scheme is PostgreSQL; anything else is a path.
    public init(_ text: String) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") {
            self = .postgres(url: text)
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The location as messages and logs may show it: a URL's password (and any `password=`
    /// parameter) replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): return path
        case .postgres(let url): return PostgresURL.masked(url)
        }
    }
}
