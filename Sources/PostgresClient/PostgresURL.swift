import Foundation

/// PostgreSQL connection URLs as messages may show them, and as libpq is to read them.
///
/// A URL's credentials are everything between `scheme://` and the first `@` that is followed by
/// a host part (`host[:port][,host[:port]…]`, then the end, `/dbname` or `?key=value`): the
/// user up to the first `:`, the password after it. So a password may hold any printable
/// character as typed (`postgresql://ddkpi:p@ss:w/rd?x y@host/db`), `?`, `@`, `/`, spaces and
/// quotes included; libpq itself would end it at the first `@` or `/` and read the rest as the
/// host, showing it in its error.
public enum PostgresURL {
    /// `text`, a message with URLs in it (each ending at a space or a quote after its host
    /// part), with every URL's password and every `password=` parameter's value hidden.
    public static func redacted(_ text: String) -> String {
        redact(text, wholeURL: false)
    }

    /// `url`, a URL on its own (`--db`, `DDKPI_DB`, the configuration's `database`), with its
    /// password and any `password=` parameter hidden: what messages and logs show of it.
    public static func masked(_ url: String) -> String {
        redact(url, wholeURL: true)
    }

    /// `text`, a message from libpq or the server about `url`, with `url`'s password hidden
    /// wherever libpq may have echoed it (as typed or as libpq decoded it), and with what
    /// `redacted(_:)` hides.
    public static func redacted(_ text: String, about url: String) -> String {
        var result = redacted(text)
        guard let password = password(in: url) else { return result }
        let forms = Set([password, password.removingPercentEncoding ?? password, percentDecodedForLibpq(password)])
        for form in forms.sorted(by: { $0.count > $1.count }) where !form.isEmpty {
            result = result.replacingOccurrences(of: "\"\(form)\"", with: "\"***\"")
            if form.count >= 4 { result = result.replacingOccurrences(of: form, with: "***") }
        }
        return result
    }

    /// The password of `url` as typed (before any percent-decoding), or `nil` when it has none.
    public static func password(in url: String) -> String? {
        guard let scheme = schemeEnd(in: url), let credentials = credentials(in: url, from: scheme, wholeURL: true),
            let colon = url[credentials].firstIndex(of: ":")
        else { return nil }
        let password = url[url.index(after: colon)..<credentials.upperBound]
        return password.isEmpty ? nil : String(password)
    }

    /// `url` as libpq is to read it: in the user and password, `@` and `/` percent-encoded and a
    /// `%` that does not start an escape written `%25` (libpq decodes them), and in the query a
    /// stray `%` written `%25` too, so that libpq connects with the password as typed, never
    /// takes part of it for the host and never echoes it in a complaint about an escape.
    /// Anything but a `postgresql://` or `postgres://` URL is returned as is.
    public static func forLibpq(_ url: String) -> String {
        guard let scheme = schemeEnd(in: url) else { return url }
        var result = url
        if let query = queryStart(in: url, from: scheme) {
            result.replaceSubrange(query..<url.endIndex, with: escapingStrayPercents(url[query...]))
        }
        if let credentials = credentials(in: url, from: scheme, wholeURL: true) {
            var encoded = ""
            for (offset, character) in url[credentials].enumerated() {
                switch character {
                case "@": encoded += "%40"
                case "/": encoded += "%2F"
                case "%" where !startsEscape(url[credentials].dropFirst(offset)): encoded += "%25"
                default: encoded.append(character)
                }
            }
            result.replaceSubrange(credentials, with: encoded)
        }
        return result
    }

    /// `url` with `schema` first on the search path (libpq's `options=-csearch_path=…`), so
    /// that a warehouse there is apart from any other in the same database.
    public static func url(_ url: String, searchPath schema: String) -> String {
        let hasQuery = schemeEnd(in: url).flatMap { queryStart(in: url, from: $0) } != nil
        return url + (hasQuery ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    // MARK: - Parsing

    /// Hides the passwords in `text`; a `wholeURL` ends only at the end of the text.
    private static func redact(_ text: String, wholeURL: Bool) -> String {
        var result = text
        // user:password@ in each URL's authority part.
        var from = result.startIndex
        while let scheme = result.range(of: "://", range: from..<result.endIndex) {
            var next = scheme.upperBound
            if let credentials = credentials(in: result, from: scheme.upperBound, wholeURL: wholeURL),
                let colon = result[credentials].firstIndex(of: ":")
            {
                let password = result.index(after: colon)..<credentials.upperBound
                let offset = result.distance(from: result.startIndex, to: password.lowerBound) + 3
                result.replaceSubrange(password, with: "***")
                next = result.index(result.startIndex, offsetBy: offset)
            }
            from = next
        }
        // password=… among the query parameters (or in a key=value connection string, quoted or not).
        from = result.startIndex
        while let range = result.range(of: "password", options: .caseInsensitive, range: from..<result.endIndex) {
            var start = range.upperBound
            while start < result.endIndex, result[start] == " " { start = result.index(after: start) }
            guard start < result.endIndex, result[start] == "=" else {
                from = range.upperBound
                continue
            }
            start = result.index(after: start)
            if !wholeURL { while start < result.endIndex, result[start] == " " { start = result.index(after: start) } }
            let valueEnd = parameterValueEnd(in: result, from: start, wholeURL: wholeURL)
            let offset = result.distance(from: result.startIndex, to: start) + 3
            result.replaceSubrange(start..<valueEnd, with: "***")
            from = result.index(result.startIndex, offsetBy: offset)
        }
        return result
    }

    /// Where the `password=` value starting at `start` ends: after a quoted value's closing
    /// quote, else at `&` (and, in a message, at a space).
    private static func parameterValueEnd(in text: String, from start: String.Index, wholeURL: Bool) -> String.Index {
        if !wholeURL, start < text.endIndex, text[start] == "'" {
            var index = text.index(after: start)
            while index < text.endIndex {
                if text[index] == "\\" {
                    index = text.index(after: index)
                    if index < text.endIndex { index = text.index(after: index) }
                    continue
                }
                if text[index] == "'" { return text.index(after: index) }
                index = text.index(after: index)
            }
            return text.endIndex
        }
        return text[start...].firstIndex(where: { $0 == "&" || (!wholeURL && $0.isWhitespace) }) ?? text.endIndex
    }

    /// Where the authority part of a `postgresql://` or `postgres://` URL starts; `nil` for
    /// anything else.
    private static func schemeEnd(in url: String) -> String.Index? {
        let lowered = url.prefix(13).lowercased()
        guard lowered.hasPrefix("postgresql://") || lowered.hasPrefix("postgres://") else { return nil }
        return url.range(of: "://")?.upperBound
    }

    /// Where the query (its `?`) of the URL whose authority starts at `start` begins; `nil` without.
    private static func queryStart(in url: String, from start: String.Index) -> String.Index? {
        let host = credentials(in: url, from: start, wholeURL: true).map { url.index(after: $0.upperBound) } ?? start
        return url[host...].firstIndex(of: "?")
    }

    /// The credentials (`user` or `user:password`) of the URL whose authority starts at `start`:
    /// up to the first `@` on the line that a host part follows (see the type's comment), which
    /// in a message (not `wholeURL`) may end at a space, a quote or punctuation; `nil` without.
    private static func credentials(in text: String, from start: String.Index, wholeURL: Bool) -> Range<
        String.Index
    >? {
        let end = text[start...].firstIndex(where: \.isNewline) ?? text.endIndex
        var candidate = text[start..<end].firstIndex(of: "@")
        while let at = candidate {
            let host = text.index(after: at)
            if isHostPart(text[host..<end], wholeURL: wholeURL) { return start..<at }
            candidate = text[host..<end].firstIndex(of: "@")
        }
        return nil
    }

    /// Whether `rest` starts with a URL's host part: hosts (names, addresses or `[IPv6]`, each
    /// with an optional port) separated by commas, then the end, `/dbname` or `?key=`.
    private static func isHostPart(_ rest: Substring, wholeURL: Bool) -> Bool {
        var rest = rest
        while true {
            if rest.first == "[" {
                guard let close = rest.firstIndex(of: "]"),
                    rest[rest.startIndex..<close].allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "[" || $0 == "." })
                else { return false }
                rest = rest[rest.index(after: close)...]
            } else {
                rest = rest.drop(while: { $0.isLetter || $0.isNumber || "._%-~".contains($0) })
            }
            if rest.first == ":", let digit = rest.dropFirst().first, digit.isASCII, digit.isNumber {
                rest = rest.dropFirst().drop(while: { $0.isASCII && $0.isNumber })
            }
            guard rest.first == "," else { break }
            rest = rest.dropFirst()
        }
        guard let next = rest.first else { return true }
        switch next {
        case "/":
            let name = rest.dropFirst().prefix(while: { $0 != "?" && (wholeURL || !endsURLInMessage($0)) })
            guard !name.contains("@"), wholeURL ? !name.contains("/") : true else { return false }
            let after = rest.dropFirst(1 + name.count)
            return after.first != "?" || isQuery(after.dropFirst())
        case "?": return isQuery(rest.dropFirst())
        default:
            guard !wholeURL else { return false }
            if next == ":" { return rest.dropFirst().first.map(\.isWhitespace) ?? true }
            return endsURLInMessage(next) || ".;)]".contains(next)
        }
    }

    /// Whether `query` starts with a parameter name and `=`.
    private static func isQuery(_ query: Substring) -> Bool {
        let name = query.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        return !name.isEmpty && query.dropFirst(name.count).first == "="
    }

    /// Whether `character` ends a URL inside a message: a space or a quote.
    private static func endsURLInMessage(_ character: Character) -> Bool {
        character.isWhitespace || character == "\"" || character == "'"
    }

    /// `password` as libpq decodes what `forLibpq` sends: its escapes decoded, stray `%` kept.
    private static func percentDecodedForLibpq(_ password: String) -> String {
        var bytes: [UInt8] = []
        var rest = Substring(password)
        while let first = rest.first {
            if startsEscape(rest), let byte = UInt8(rest.dropFirst().prefix(2), radix: 16) {
                bytes.append(byte)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(contentsOf: first.utf8)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `text` starts with a percent escape (`%` and two hex digits).
    private static func startsEscape(_ text: Substring) -> Bool {
        let digits = text.dropFirst().prefix(2)
        return text.first == "%" && digits.count == 2 && digits.allSatisfy(\.isHexDigit)
    }

    /// `text` with each `%` that does not start an escape written `%25`.
    private static func escapingStrayPercents(_ text: Substring) -> String {
        var result = ""
        for (offset, character) in text.enumerated() {
            if character == "%" && !startsEscape(text.dropFirst(offset)) {
                result += "%25"
            } else {
                result.append(character)
            }
        }
        return result
    }
}
