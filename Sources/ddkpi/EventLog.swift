import ArgumentParser
import CivilCalendar
import Logging
import OutputText

#if canImport(Glibc)
    import Glibc
#endif

/// How `ingest` and `status` log: `text` (the human lines they always print) or `json` (one
/// JSON object per event on standard error, for log shippers).
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json

    /// The format `arguments` (a whole command line) ask for with `--log-format`: the last one
    /// given before `--`, `text` when none is valid. Read from the raw arguments so that an
    /// error met before or while they are parsed is written in it too.
    init(arguments: [String]) {
        self = .text
        var rest = arguments.dropFirst()[...]
        while let argument = rest.popFirst(), argument != "--" {
            if argument == "--log-format", let value = rest.first {
                self = LogFormat(rawValue: value) ?? self
            } else if argument.hasPrefix("--log-format=") {
                self = LogFormat(rawValue: String(argument.dropFirst("--log-format=".count))) ?? self
            }
        }
    }
}

/// The events of a run (SPEC section 15): with `json`, each is one line on standard error with
/// `ts`, `level`, `event` and the event's fields (file, feed, counts, an error reason). Events
/// carry no row values and no names: callers pass counts and reasons only.
struct EventLog {
    let format: LogFormat
    private let logger: Logger?

    init(format: LogFormat) {
        self.format = format
        logger = format == .json ? Logger(label: "ddkpi", factory: { _ in JSONLineLogHandler() }) : nil
    }

    /// Whether human diagnostics (which may quote cell values) should stay off standard error.
    var isStructured: Bool { format == .json }

    func info(_ event: String, fields: Logger.Metadata = [:]) { logger?.info("\(event)", metadata: fields) }
    func warning(_ event: String, fields: Logger.Metadata = [:]) { logger?.warning("\(event)", metadata: fields) }
    func error(_ event: String, fields: Logger.Metadata = [:]) { logger?.error("\(event)", metadata: fields) }
}

/// A swift-log handler writing one JSON object per line to standard error. Every string value
/// has its control characters escaped before it is quoted, so a message stays one line even
/// once a log shipper has decoded it (SPEC section 15).
struct JSONLineLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let (level, message, explicit) = (event.level, event.message, event.metadata)
        var fields = [
            ("ts", "\"\(UTCTimestamp.now())\""), ("level", "\"\(level.rawValue)\""),
            ("event", Self.quoted("\(message)")),
        ]
        let merged = metadata.merging(explicit ?? [:]) { $1 }
        for key in merged.keys.sorted() {
            if let value = merged[key] { fields.append((key, Self.json(value))) }
        }
        let text = "{" + fields.map { "\(Self.quoted($0.0)):\($0.1)" }.joined(separator: ",") + "}\n"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): return quoted(text)
        case .stringConvertible(let value):
            if let number = value as? any BinaryInteger { return "\(number)" }
            if let flag = value as? Bool { return flag ? "true" : "false" }
            if value is JSONNull { return "null" }
            return quoted(value.description)
        case .array(let values): return "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values):
            return "{"
                + values.keys.sorted().compactMap { key in values[key].map { quoted(key) + ":" + json($0) } }.joined(
                    separator: ",") + "}"
        }
    }

    private static func quoted(_ text: String) -> String { JSONText.quoted(ControlCharacters.escaped(text)) }
}

/// What the libraries' loggers write (`main` bootstraps swift-log with it), the PostgreSQL
/// server's notices among them: under `json` the event log's JSON lines, in text one
/// `ddkpi: LEVEL: EVENT: MESSAGE` line with control characters escaped.
struct ProcessLogHandler: LogHandler {
    let format: LogFormat
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if format == .json {
            return JSONLineLogHandler(metadata: metadata, logLevel: logLevel).log(event: event)
        }
        let fields = metadata.merging(event.metadata ?? [:]) { $1 }
        var text = "\(event.message)"
        if let message = fields["message"] { text += ": \(message)" }
        let others = fields.keys.sorted().filter { $0 != "message" }.compactMap { key in
            fields[key].map { "\(key) \($0)" }
        }
        if !others.isEmpty { text += " (" + others.joined(separator: ", ") + ")" }
        let level = event.level >= .error ? "error" : event.level == .warning ? "warning" : "note"
        var bytes = Array("ddkpi: \(level): \(ControlCharacters.escaped(text))\n".utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

extension Logger.MetadataValue {
    /// A whole number as JSON writes it (unquoted).
    static func int(_ value: Int) -> Logger.MetadataValue { .stringConvertible(value) }
    /// `true` or `false`, as JSON writes them (unquoted).
    static func bool(_ value: Bool) -> Logger.MetadataValue { .stringConvertible(value) }
    /// JSON `null`.
    static var null: Logger.MetadataValue { .stringConvertible(JSONNull()) }
}

/// Writes as `null` in JSON log lines.
struct JSONNull: CustomStringConvertible, Sendable {
    var description: String { "null" }
}
