/// PostgreSQL connection URLs as messages may show them.
public enum PostgresURL {
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

    /// `url` with `schema` first on the search path (libpq's `options=-csearch_path=…`), so
    /// that a warehouse there is apart from any other in the same database.
    public static func url(_ url: String, searchPath schema: String) -> String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }
}
