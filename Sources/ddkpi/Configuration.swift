import Alerts
import Checks
import Delivery
import Feeds
import Foundation
import KPI
import Reports
import TOMLKit
import Warehouse

/// Settings from the config file (`--config`, default `./ddkpi.toml` when present). Everything
/// has a default, so ddkpi works with no file at all.
///
/// TOML, through TOMLKit: the spec's file is `ddkpi.toml`, and TOML's tables map directly onto
/// "aliases per feed and field" without the indentation traps of YAML.
///
/// Every key this loader accepts, each at its default with a one-line comment, is in
/// `docs/ddkpi.example.toml`; `ConfigTemplateTests` loads that file here, and an unknown key is
/// an error, so the example and this loader cannot drift apart.
struct Configuration {
    /// The file the settings were read from (`nil`: the defaults).
    var file: String?
    var databasePath: String?
    var feedOptions = FeedOptions()
    var fiscalYearStartMonth = 1
    var rejectThreshold = 0.05
    var namePatterns: [(token: String, feed: FeedID)] = []
    /// Days after which each feed is late (`[freshness]`, SPEC section 15).
    var freshness = FreshnessPolicy()
    /// The wrong-data checks' settings (`[check]`, SPEC section 18); their week start is `week_start`.
    var checks = CheckSettings()
    /// Changes smaller than this fraction are not coloured in documents (`[documents]`, SPEC section 20).
    var neutralBand = 0.005
    /// `[calendar] kind` (SPEC section 21).
    var calendarKind = FiscalCalendar.Kind.gregorian
    /// `[calendar] ly`; `nil`: the kind's default.
    var lastYearRule: FiscalCalendar.LastYearRule?
    /// `[comp] enabled`: the comparable-store scopes (SPEC section 21).
    var comparableStores = false
    /// `currency` and `locale`: how documents and text write money and numbers (SPEC section 26).
    var numberStyle = NumberStyle.standard
    /// `[feeds] enabled`: the data feeds the company has (SPEC section 26); `sales-audit` always.
    var enabledFeeds = Set(FeedID.dataFeeds)
    /// The `[[alert]]` rules (SPEC section 24).
    var alertRules: [AlertRule] = []
    /// `[delivery]` and `[webhooks]`: where messages go and how sends are retried (SPEC section 24).
    var delivery = DeliverySettings()

    /// The reporting calendar these settings describe.
    var calendar: FiscalCalendar {
        FiscalCalendar(
            weekStart: feedOptions.weekStart, fiscalYearStartMonth: fiscalYearStartMonth, kind: calendarKind,
            lastYearRule: lastYearRule)
    }

    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Loads the file at `path`, or `./ddkpi.toml` if it exists, or the defaults.
    static func load(path: String?) throws -> Configuration {
        let file = path ?? (FileManager.default.fileExists(atPath: "ddkpi.toml") ? "ddkpi.toml" : nil)
        guard let file else { return Configuration() }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw ConfigurationError("cannot read the config file \(file)")
        }
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigurationError(
                "\(file) line \(error.source.begin.line), column \(error.source.begin.column): \(error.description)")
        }
        return try Configuration(table: table, file: file)
    }

    init() {}

    init(table: TOMLTable, file: String) throws {
        self.file = file
        for key in table.keys {
            let value = table[key]
            switch key {
            case "database", "week_start", "fiscal_year_start_month", "day_first_dates", "reject_threshold":
                try readSetting(key, value, file: file)
            case "currency", "locale": break
            case "aliases": try readAliases(try Self.table(value, key, "a table of feeds", file: file), file: file)
            case "freshness":
                try readFreshness(try Self.table(value, key, "a table of feed ids and days", file: file), file: file)
            case "file_patterns":
                try readFilePatterns(try Self.table(value, key, "a table of feeds", file: file), file: file)
            case "check":
                try readChecks(try Self.table(value, key, "a table of check settings", file: file), file: file)
            case "calendar":
                try readCalendar(try Self.table(value, key, "a table with kind and ly", file: file), file: file)
            case "feeds":
                try readFeeds(try Self.table(value, key, "a table with enabled", file: file), file: file)
            case "comp": try readComp(try Self.table(value, key, "a table with enabled", file: file), file: file)
            case "documents":
                try readDocuments(try Self.table(value, key, "a table with neutral_band", file: file), file: file)
            case "delivery":
                try readDelivery(try Self.table(value, key, "a table of delivery settings", file: file), file: file)
            case "webhooks":
                try readWebhooks(
                    try Self.table(value, key, "a table of webhook names and URLs", file: file), file: file)
            case "alert":
                do {
                    alertRules = try AlertRules.parse(value, file: file)
                } catch let error as AlertRuleError {
                    throw ConfigurationError(error.description)
                }
            default:
                throw ConfigurationError("\(file): unknown setting \"\(key)\"")
            }
        }
        try readNumberStyle(table, file: file)
        checks.weekStart = feedOptions.weekStart
        feedOptions.enabledFeeds = enabledFeeds
        freshness.enabledFeeds = enabledFeeds
        freshness.weeklyFeeds = feedOptions.weeklyFeeds
        feedOptions.goalMonths = calendar.goalMonths
        do {
            try feedOptions.validate()
        } catch {
            throw ConfigurationError("\(file): \(error)")
        }
    }
}

extension Configuration {
    /// The error for `key` in `file` whose value is not what was expected.
    fileprivate static func expected(_ key: String, _ expected: String, file: String) -> ConfigurationError {
        ConfigurationError("\(file): \(key): expected \(expected)")
    }

    /// `value` as a TOML table, or the error naming `key` and what was expected.
    fileprivate static func table(_ value: TOMLValueConvertible?, _ key: String, _ expected: String, file: String)
        throws -> TOMLTable
    {
        guard let table = value?.table else { throw Self.expected(key, expected, file: file) }
        return table
    }

    /// Reads one of the top-level settings.
    private mutating func readSetting(_ key: String, _ value: TOMLValueConvertible?, file: String) throws {
        let fail = { (expected: String) in Self.expected(key, expected, file: file) }
        switch key {
        case "database":
            guard let path = value?.string else { throw fail("a path string") }
            databasePath = path
        case "week_start":
            guard let name = value?.string?.lowercased(), let index = Self.weekdays.firstIndex(of: name) else {
                throw fail("a weekday name such as \"monday\"")
            }
            feedOptions.weekStart = index
        case "fiscal_year_start_month":
            guard let month = value?.int, (1...12).contains(month) else { throw fail("a month number 1-12") }
            fiscalYearStartMonth = month
        case "day_first_dates":
            guard let flag = value?.bool else { throw fail("true or false") }
            feedOptions.dateText.dayFirst = flag
        default:
            guard let fraction = value?.double ?? value?.int.map(Double.init), (0...1).contains(fraction) else {
                throw fail("a fraction between 0 and 1, such as 0.05")
            }
            rejectThreshold = fraction
        }
    }

    /// Reads `currency` and `locale`, each defaulting to `NumberStyle.standard`'s.
    private mutating func readNumberStyle(_ table: TOMLTable, file: String) throws {
        let text = { (key: String, standard: String) throws -> String in
            guard let value = table[key] else { return standard }
            guard let text = value.string else {
                throw Self.expected(key, "a string such as \"\(standard)\"", file: file)
            }
            return text
        }
        do {
            numberStyle = try NumberStyle(
                currency: try text("currency", NumberStyle.standard.currency),
                locale: try text("locale", NumberStyle.standard.locale))
        } catch let error as DocumentError {
            throw ConfigurationError("\(file): \(error)")
        }
    }

    /// Reads `[aliases]`: per feed, per canonical field, extra header strings.
    private mutating func readAliases(_ feeds: TOMLTable, file: String) throws {
        for feedName in feeds.keys {
            guard let feed = FeedID(rawValue: feedName), let fields = feeds[feedName]?.table else {
                throw Self.expected(
                    "aliases.\(feedName)",
                    "a feed id (\(FeedID.allCases.map(\.rawValue).joined(separator: ", "))) with a table of fields",
                    file: file)
            }
            for fieldName in fields.keys {
                guard let field = CanonicalField(name: fieldName),
                    let names = fields[fieldName]?.array?.compactMap({ $0.string })
                else {
                    throw Self.expected(
                        "aliases.\(feedName).\(fieldName)", "a canonical field name with a list of header strings",
                        file: file)
                }
                feedOptions.extraAliases[feed, default: [:]][field, default: []].append(contentsOf: names)
            }
        }
    }

    /// Reads `[freshness]`: per data feed, the days after which it is late.
    private mutating func readFreshness(_ feeds: TOMLTable, file: String) throws {
        for feedName in feeds.keys {
            guard let feed = FeedID(rawValue: feedName), FeedID.dataFeeds.contains(feed),
                let days = feeds[feedName]?.int, days >= 0
            else {
                throw Self.expected(
                    "freshness.\(feedName)",
                    "a feed id (\(FeedID.dataFeeds.map(\.rawValue).joined(separator: ", "))) with a whole number of days",
                    file: file)
            }
            freshness.thresholds[feed] = days
        }
    }

    /// Reads `[file_patterns]`: per feed, the file-name tokens that name it.
    private mutating func readFilePatterns(_ feeds: TOMLTable, file: String) throws {
        for feedName in feeds.keys {
            guard let feed = FeedID(rawValue: feedName),
                let tokens = feeds[feedName]?.array?.compactMap({ $0.string })
            else {
                throw Self.expected(
                    "file_patterns.\(feedName)", "a feed id with a list of file-name tokens", file: file)
            }
            namePatterns += tokens.map { ($0.lowercased(), feed) }
        }
    }

    /// Reads `[feeds]`: `enabled`, the data feeds the company has (`sales-audit` is always one),
    /// and `[feeds.sales-audit]`, how the sales export is laid out.
    private mutating func readFeeds(_ settings: TOMLTable, file: String) throws {
        for name in settings.keys {
            if name == FeedID.salesAudit.rawValue {
                let key = "feeds.\(name)"
                try readSalesAuditLayout(
                    try Self.table(settings[name], key, "a table with grain", file: file), file: file)
                continue
            }
            guard name == "enabled" else { throw ConfigurationError("\(file): unknown setting \"feeds.\(name)\"") }
            let expected =
                "a list of feed ids (\(FeedID.dataFeeds.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")))"
            guard let items = settings[name]?.array else { throw Self.expected("feeds.enabled", expected, file: file) }
            enabledFeeds = [.salesAudit]
            for item in items {
                guard let id = item.string, let feed = FeedID(rawValue: id), FeedID.dataFeeds.contains(feed) else {
                    throw Self.expected("feeds.enabled", "\(expected), not \(item.debugDescription)", file: file)
                }
                enabledFeeds.insert(feed)
            }
        }
    }

    /// Reads `[feeds.sales-audit]`: `grain = "day" | "week"` and, for weeks, `week_date =
    /// "start" | "end"`, the day of its week a row's date is (SPEC section 26).
    private mutating func readSalesAuditLayout(_ settings: TOMLTable, file: String) throws {
        var grain = "day"
        var weekDate: WeekDate?
        for name in settings.keys {
            switch name {
            case "grain":
                guard let value = settings[name]?.string, ["day", "week"].contains(value) else {
                    throw Self.expected("feeds.sales-audit.grain", "\"day\" or \"week\"", file: file)
                }
                grain = value
            case "week_date":
                guard let value = settings[name]?.string, let date = WeekDate(rawValue: value) else {
                    throw Self.expected("feeds.sales-audit.week_date", "\"start\" or \"end\"", file: file)
                }
                weekDate = date
            default:
                throw ConfigurationError(
                    "\(file): unknown setting \"feeds.sales-audit.\(name)\" (expected grain or week_date)")
            }
        }
        if grain == "day", weekDate != nil {
            throw Self.expected("feeds.sales-audit.week_date", "grain = \"week\" with it", file: file)
        }
        feedOptions.salesWeekDate = grain == "week" ? weekDate ?? .start : nil
    }

    /// Reads `[comp]`: `enabled`.
    private mutating func readComp(_ settings: TOMLTable, file: String) throws {
        for name in settings.keys {
            guard name == "enabled", let flag = settings[name]?.bool else {
                throw Self.expected("comp.\(name)", "enabled = true or false", file: file)
            }
            comparableStores = flag
        }
    }

    /// Reads `[documents]`: `neutral_band`.
    private mutating func readDocuments(_ documents: TOMLTable, file: String) throws {
        for name in documents.keys {
            guard name == "neutral_band", let band = Self.fraction(documents[name]), (0..<1).contains(band) else {
                throw Self.expected(
                    "documents.\(name)", "neutral_band = a fraction such as 0.005, or \"0.5%\"", file: file)
            }
            neutralBand = band
        }
    }
}

extension Configuration {
    /// Reads the `[check]` table into `checks`; every key is optional.
    private mutating func readChecks(_ table: TOMLTable, file: String) throws {
        func fail(_ key: String, _ expected: String) -> ConfigurationError {
            ConfigurationError("\(file): check.\(key): expected \(expected)")
        }
        for key in table.keys {
            let value = table[key]
            switch key {
            case "z":
                guard let z = value?.double ?? value?.int.map(Double.init), z > 0 else {
                    throw fail(key, "a positive number, such as 5")
                }
                checks.z = z
            case "tolerance":
                guard let share = value?.double ?? value?.int.map(Double.init), (0...1).contains(share) else {
                    throw fail(key, "a fraction between 0 and 1, such as 0.005")
                }
                checks.tolerance = share
            case "closed":
                guard let items = value?.array else {
                    throw fail(key, "a list of days such as [\"12-25\", \"2025-07-04\"]")
                }
                checks.closed = []
                checks.storeClosed = []
                for (position, item) in items.enumerated() {
                    if let entry = item.table {
                        checks.storeClosed.append(try Self.storeClosedDays(entry, entry: position + 1, file: file))
                    } else if let text = item.string, let day = ClosedDay(text) {
                        checks.closed.append(day)
                    } else {
                        throw fail(
                            key,
                            "days as \(Self.closedDayForms), or tables such as { stores = [\"08\"], dates = [\"2025-07-04\"] } or { region = \"East\", dates = [\"12-24\"] }, not \(item.debugDescription)"
                        )
                    }
                }
            case "reconcile_merch":
                guard let flag = value?.bool else { throw fail(key, "true or false") }
                checks.reconcileMerch = flag
            case "on_ingest":
                guard let name = value?.string, let gate = IngestGate(rawValue: name) else {
                    throw fail(key, "\"warn\" or \"hold\"")
                }
                checks.onIngest = gate
            default:
                throw ConfigurationError("\(file): unknown setting \"check.\(key)\"")
            }
        }
    }

    /// The forms of a closed day, as errors list them.
    private static var closedDayForms: String {
        "\"MM-DD\" or \"YYYY-MM-DD\", or one of "
            + MoveableDay.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    }

    /// Reads a `[check] closed` table (the list's `entry`-th item, from 1): `stores` (codes) or
    /// `region` (a name), and `dates` in every form a plain entry takes (SPEC section 26).
    private static func storeClosedDays(_ table: TOMLTable, entry: Int, file: String) throws -> StoreClosedDays {
        func fail(_ expected: String) -> ConfigurationError {
            ConfigurationError("\(file): check.closed, entry \(entry): expected \(expected)")
        }
        let form =
            "{ stores = [\"08\", \"12\"], dates = [\"2025-07-04\"] } or { region = \"East\", dates = [\"12-24\"] }"
        if let unknown = table.keys.first(where: { !["stores", "region", "dates"].contains($0) }) {
            throw fail("\(form), not the key \"\(unknown)\"")
        }
        guard let dates = table["dates"]?.array else { throw fail("\(form): dates is missing or not a list") }
        let days = try dates.map { item in
            guard let text = item.string, let day = ClosedDay(text) else {
                throw fail("dates as \(closedDayForms), not \(item.debugDescription)")
            }
            return day
        }
        switch (table["stores"], table["region"]) {
        case (let stores?, nil):
            guard let items = stores.array, !items.isEmpty else {
                throw fail("stores as a list of store codes such as [\"08\", \"12\"]")
            }
            let codes = try items.map { item in
                guard let code = storeCode(item) else {
                    throw fail("stores as store codes such as [\"08\", \"12\"], not \(item.debugDescription)")
                }
                return code
            }
            return StoreClosedDays(stores: Set(codes), days: days)
        case (nil, let region?):
            guard let name = region.string, !name.isEmpty else {
                throw fail("region as the name of a region of the store directory, such as \"East\"")
            }
            return StoreClosedDays(region: name, days: days)
        case (nil, nil): throw fail("\(form): stores or region is missing")
        case (_?, _?): throw fail("\(form): stores or region, not both")
        }
    }

    /// A store code as the config writes it: `"08"`, `"8"` or `8`, in canonical form (`08`).
    private static func storeCode(_ item: any TOMLValueConvertible) -> String? {
        if let number = item.int { return number >= 0 ? StoreDirectory.code(number) : nil }
        guard let text = item.string, !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(text)
        else { return nil }
        return StoreDirectory.code(number)
    }

    /// The `[check]` settings with the closed days' store and region entries checked against
    /// `warehouse`'s store directory and each region given its stores (`CheckSettings.resolvingRegions`):
    /// a region, or a store code, the directory does not have is a configuration error (exit 2).
    func checks(against warehouse: Warehouse) throws -> CheckSettings {
        guard !checks.storeClosed.isEmpty else { return checks }
        do {
            return try checks.resolvingRegions(try warehouse.stores().map { ($0.code, $0.region) })
        } catch let error as ClosedDaysError {
            let entry =
                error.entry.region.map { "{ region = \"\($0)\" }" }
                ?? "{ stores = [\(error.entry.stores.sorted().map { "\"\($0)\"" }.joined(separator: ", "))] }"
            throw ConfigurationError("\(file ?? "the config"): check.closed, the entry \(entry): \(error)")
        }
    }

    /// Reads the `[calendar]` table: `kind` and `ly`, both optional.
    private mutating func readCalendar(_ table: TOMLTable, file: String) throws {
        for key in table.keys {
            let value = table[key]
            switch key {
            case "kind":
                guard let name = value?.string, let kind = FiscalCalendar.Kind(name: name) else {
                    throw ConfigurationError(
                        "\(file): calendar.kind: expected one of \(FiscalCalendar.Kind.names.map { "\"\($0)\"" }.joined(separator: ", "))"
                    )
                }
                calendarKind = kind
            case "ly":
                guard let name = value?.string, let rule = FiscalCalendar.LastYearRule(rawValue: name) else {
                    throw ConfigurationError("\(file): calendar.ly: expected \"date\" or \"weekday\"")
                }
                lastYearRule = rule
            default:
                throw ConfigurationError("\(file): unknown setting \"calendar.\(key)\"")
            }
        }
    }

    /// A number as a fraction, or a `"0.5%"` string as one (0.005).
    fileprivate static func fraction(_ value: (any TOMLValueConvertible)?) -> Double? {
        if let number = value?.double ?? value?.int.map(Double.init) { return number }
        guard let text = value?.string?.trimmingCharacters(in: .whitespaces), text.hasSuffix("%"),
            let percent = Double(text.dropLast().trimmingCharacters(in: .whitespaces))
        else { return nil }
        return percent / 100
    }
}

extension Configuration {
    /// Reads `[delivery]`; every key is optional. A password is never in the file: only where it is.
    private mutating func readDelivery(_ table: TOMLTable, file: String) throws {
        for key in table.keys {
            let value = table[key]
            let fail = { (expected: String) in Self.expected("delivery.\(key)", expected, file: file) }
            switch key {
            case "smtp":
                guard let url = value?.string, url.hasPrefix("smtps://") || url.hasPrefix("smtp://") else {
                    throw fail("a URL such as \"smtps://mail.example.com:465\" or \"smtp://mail.example.com:587\"")
                }
                delivery.smtp = url
            case "from", "user", "password_env", "password_file", "ca_file":
                guard let text = value?.string, !text.isEmpty else { throw fail("a non-empty string") }
                switch key {
                case "from": delivery.from = text
                case "user": delivery.user = text
                case "password_env": delivery.passwordEnvironment = text
                case "password_file": delivery.passwordFile = text
                default: delivery.caFile = text
                }
            case "require_tls":
                guard let flag = value?.bool else { throw fail("true or false") }
                delivery.requireTLS = flag
            case "retries":
                guard let count = value?.int, (0...20).contains(count) else { throw fail("a whole number 0-20") }
                delivery.retries = count
            case "backoff_seconds":
                guard let seconds = value?.double ?? value?.int.map(Double.init), seconds >= 0, seconds <= 3600 else {
                    throw fail("a number of seconds 0-3600, such as 1")
                }
                delivery.backoffSeconds = seconds
            case "timeout_seconds":
                guard let seconds = value?.int, (1...3600).contains(seconds) else {
                    throw fail("a whole number of seconds 1-3600, such as 30")
                }
                delivery.timeoutSeconds = seconds
            default:
                throw ConfigurationError("\(file): unknown setting \"delivery.\(key)\"")
            }
        }
        if delivery.passwordEnvironment != nil, delivery.passwordFile != nil {
            throw ConfigurationError("\(file): delivery: expected password_env or password_file, not both")
        }
    }

    /// Reads `[webhooks]`: names and their `https://` (or `http://`) URLs.
    private mutating func readWebhooks(_ table: TOMLTable, file: String) throws {
        for name in table.keys {
            guard let url = table[name]?.string, url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw Self.expected("webhooks.\(name)", "an https:// or http:// URL", file: file)
            }
            delivery.webhooks[name] = url
        }
    }
}

/// A usage or configuration problem: exit code 2.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
