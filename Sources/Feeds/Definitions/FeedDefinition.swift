/// What a feed needs from a header row: all of a set of fields, where an entry may be satisfied
/// by any one of several fields (weekday columns).
public struct FieldRequirement: Sendable, Equatable {
    public var anyOf: [CanonicalField]

    public static func field(_ field: CanonicalField) -> FieldRequirement { FieldRequirement(anyOf: [field]) }
    public static func anyWeekday() -> FieldRequirement { FieldRequirement(anyOf: CanonicalField.weekdays) }
    public static func anyOf(_ fields: [CanonicalField]) -> FieldRequirement { FieldRequirement(anyOf: fields) }
}

/// A feed's contract: the fields it reads, their header aliases, and the header layouts it accepts.
///
/// Declarative: adding an alias or a field is a data change, and the config file can extend
/// aliases without code (`[aliases.sales-audit] totalSales = ["Net Rev"]`).
public struct FeedDefinition: Sendable {
    public var id: FeedID
    /// Normalised header key → field.
    public private(set) var aliases: [String: CanonicalField]
    /// Each field's built-in header names, as written (what an error offers a person).
    public private(set) var names: [CanonicalField: [String]]
    /// The normalised keys the config file added (`addAliases`).
    public private(set) var configAliases: Set<String> = []
    /// Accepted layouts: a header row must satisfy every requirement of one of them.
    public var layouts: [[FieldRequirement]]
    /// Normalised header keys any one of which marks a header row as this feed's when neither
    /// `--feed` nor the file name decides (SPEC section 3); empty when the feed has none.
    public var signature: Set<String>
    /// Lower-case tokens a file name holds when the file is this feed's (`crm`, `intake`).
    public var fileNameTokens: [String]
    /// How its rows become records.
    public var rows: FeedRows

    /// A feed of `fields` (field → header aliases), accepting `layouts`, recognised by any
    /// header of `signature` or token of `fileNames`, whose rows become records as `rows` says.
    public init(
        id: FeedID, fields: [CanonicalField: [String]], layouts: [[FieldRequirement]], signature: [String] = [],
        fileNames: [String] = [], rows: FeedRows
    ) {
        self.id = id
        self.rows = rows
        fileNameTokens = fileNames
        self.layouts = layouts
        self.signature = Set(signature.map(HeaderKey.normalize))
        names = fields
        aliases = [:]
        for (field, names) in fields {
            for name in names { aliases[HeaderKey.normalize(name)] = field }
        }
    }

    /// Adds header aliases for a field (from the config file). An alias that normalises to
    /// another field's alias is refused, so that matching never depends on an order (SPEC section 3).
    public mutating func addAliases(_ names: [String], for field: CanonicalField) throws {
        for name in names {
            let key = HeaderKey.normalize(name)
            if let other = aliases[key], other != field {
                throw AliasConflict(feed: id, alias: name, field: field, existing: other)
            }
            aliases[key] = field
            configAliases.insert(key)
        }
    }

    /// The field a header cell names, if any.
    public func field(forHeader text: String) -> CanonicalField? { aliases[HeaderKey.normalize(text)] }

    /// Whether every alias holds a letter, a `#` or a byte above ASCII (`hasALetter`), so that
    /// text with none (a number, a date, money) cannot name a field: true of the built-in
    /// aliases, not of a config alias such as `"2025"`.
    var everyAliasHasALetter: Bool { aliases.keys.allSatisfy { Self.hasALetter($0.utf8) } }

    /// Whether UTF-8 text holds an ASCII letter, a `#` or a byte above ASCII.
    @inline(__always) static func hasALetter(_ utf8: some Sequence<UInt8>) -> Bool {
        utf8.contains { ($0 | 0x20) &- UInt8(ascii: "a") < 26 || $0 == UInt8(ascii: "#") || $0 >= 0x80 }
    }
}

/// A config alias that would name two fields of one feed.
public struct AliasConflict: Error, CustomStringConvertible, Sendable {
    public var feed: FeedID
    public var alias: String
    public var field: CanonicalField
    public var existing: CanonicalField

    public var description: String {
        "alias \"\(alias)\" for \(feed.rawValue) field \(field.name) reads as \"\(HeaderKey.normalize(alias))\", which already names field \(existing.name)"
    }
}
