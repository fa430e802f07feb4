import Foundation

/// PostgreSQL connection URLs as messages may show them, and as libpq is to read them.
///
/// A URL's credentials are everything between `scheme://` and the last `@` before the query:
/// the user up to the first `:`, the password after it. So a password may hold `@`, `:` and `/`
/// as typed (`postgresql://ddkpi:p@ss:w/rd@host/db`); libpq itself would end it at the first
/// `@` and read the rest as the host, showing it in its error.
public enum PostgresURL {
    /// `text` with every PostgreSQL URL's password hidden, and every `password=` parameter's.
    public static func redacted(_ text: String) -> String {
        var result = text
        // user:password@ in each URL's authority part.
        var from = result.startIndex
        while let scheme = result.range(of: "://", range: from..<result.endIndex) {
            var next = scheme.upperBound
            if let userInfo = userInfo(in: result, from: scheme.upperBound),
                let colon = result[userInfo].firstIndex(of: ":")
            {
                let password = result.index(after: colon)..<userInfo.upperBound
                let offset = result.distance(from: result.startIndex, to: password.lowerBound) + 3
                result.replaceSubrange(password, with: "***")
                next = result.index(result.startIndex, offsetBy: offset)
            }
            from = next
        }
        // password=… among the query parameters (or in a key=value connection string).
        from = result.startIndex
        while let range = result.range(of: "password=", options: .caseInsensitive, range: from..<result.endIndex) {
            let valueEnd = result[range.upperBound...].firstIndex(where: { $0 == "&" || $0 == " " }) ?? result.endIndex
            let offset = result.distance(from: result.startIndex, to: range.upperBound) + 3
            result.replaceSubrange(range.upperBound..<valueEnd, with: "***")
            from = result.index(result.startIndex, offsetBy: offset)
        }
        return result
    }

    /// `url` as libpq is to read it: `@` and `/` in the user and password percent-encoded
    /// (libpq decodes them), so that it connects with the password as typed and never takes
    /// part of it for the host. Anything but a `postgresql://` or `postgres://` URL is returned
    /// as is.
    public static func forLibpq(_ url: String) -> String {
        guard url.hasPrefix("postgresql://") || url.hasPrefix("postgres://"),
            let scheme = url.range(of: "://"), let userInfo = userInfo(in: url, from: scheme.upperBound)
        else { return url }
        var encoded = ""
        for character in url[userInfo] {
            switch character {
            case "@": encoded += "%40"
            case "/": encoded += "%2F"
            default: encoded.append(character)
            }
        }
        var result = url
        result.replaceSubrange(userInfo, with: encoded)
        return result
    }

    /// `url` with `schema` first on the search path (libpq's `options=-csearch_path=…`), so
    /// that a warehouse there is apart from any other in the same database.
    public static func url(_ url: String, searchPath schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    /// The credentials (`user` or `user:password`) of the URL whose authority starts at `start`:
    /// up to the last `@` before its query, the URL ending at a space or quote; `nil` without.
    private static func userInfo(in text: String, from start: String.Index) -> Range<String.Index>? {
        let end = text[start...].firstIndex(where: { $0.isWhitespace || $0 == "\"" || $0 == "'" }) ?? text.endIndex
        let queryStart = text[start..<end].firstIndex(of: "?") ?? end
        guard let at = text[start..<queryStart].lastIndex(of: "@") else { return nil }
        return start..<at
    }
}
