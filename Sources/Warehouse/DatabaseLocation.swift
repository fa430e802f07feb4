import Foundation

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
        case .postgres(let url): return Self.redacted(url)
        }
    }

    /// `text` with every PostgreSQL URL's password hidden.
    public static func redacted(_ text: String) -> String {
        var result = text
        // user:password@ in the authority part.
        if let schemeEnd = result.range(of: "://") {
            let authorityEnd = result[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? result.endIndex
            let authority = result[schemeEnd.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: "***")
            }
        }
        // password=… among the query parameters (or in a key=value connection string).
        while let range = result.range(of: "password=", options: .caseInsensitive),
              !result[range.upperBound...].hasPrefix("***")
        {
            let valueEnd = result[range.upperBound...].firstIndex(where: { $0 == "&" || $0 == " " }) ?? result.endIndex
            result.replaceSubrange(range.upperBound..<valueEnd, with: "***")
        }
        return result
    }
}
