import CivilCalendar
import Feeds
import Foundation
import KPI
import OutputText
import Reports
import Warehouse

/// What a publish covers: a quarter (as of its last day, or the latest data day if earlier) or
/// an as-of day (in its quarter).
public enum PublishPeriod: Sendable {
    case quarter(FiscalQuarter)
    case asOf(CivilDate)
}

/// One pack as written (or, on a dry run, as it would be).
public struct PackResult: Sendable {
    public var name: String
    /// File names relative to the pack's folder, `manifest.json` last.
    public var files: [String]
    /// The late-data banner, when a feed is late or missing for the pack's stores.
    public var banner: String?
    /// The addresses the plan mails the pack to.
    public var email: [String] = []
    /// The pack's period and as-of date, as its manifest gives them (`2025Q2`, `2025-06-30`).
    public var period = ""
    public var asOf = ""
    /// The count of alarms over the period, as in the manifest; `nil` on a dry run.
    public var alarms: Int?

    /// The body of the pack's mail (SPEC section 24): its period, freshness and alarm summary, its files.
    public var mailText: String {
        [
            "The pack \(name) for \(period), as of \(asOf).", "",
            "Freshness: " + (banner ?? "every feed is current."),
            "Alarms: "
                + (alarms.map { $0 == 0 ? "none over the period." : "\($0) over the period (see ddkpi check)." }
                    ?? "not counted."),
            "", "Files: " + files.joined(separator: ", "),
        ].joined(separator: "\n") + "\n"
    }
}

/// Writes each pack of a plan (SPEC section 19): its documents, every value within its scope,
/// and `manifest.json` with each file's size and SHA-256, the feed freshness verdicts of the
/// pack's stores and the count of wrong-data alarms for them over the period. Everything is
/// dated by the period, never the clock, so re-running gives byte-identical packs.
public struct Publisher {
    public let engine: KPIEngine
    public var freshness: FreshnessPolicy
    public var neutralBand: Double
    /// The number of wrong-data alarms (SPEC section 18) for these stores over these days.
    public var alarmCount: ([String], DateRange) throws -> Int
    /// The private key that signs each manifest (`publish --sign`, SPEC section 23), if any.
    public var signingKey: Ed25519Key?

    public init(
        engine: KPIEngine, freshness: FreshnessPolicy, neutralBand: Double,
        alarmCount: @escaping ([String], DateRange) throws -> Int
    ) {
        self.engine = engine
        self.freshness = freshness
        self.neutralBand = neutralBand
        self.alarmCount = alarmCount
    }

    /// The days a pack over `scope` covers: the quarter, and the as-of day every one of its
    /// documents is cut at (SPEC section 19) — with a quarter, the latest sales-audit day of the
    /// pack's stores when earlier than the quarter's last day.
    public func resolve(_ period: PublishPeriod, for scope: ScopeFilter) throws
        -> (quarter: FiscalQuarter, asOf: CivilDate)
    {
        switch period {
        case .quarter(let quarter):
            let latest = try engine.dataThrough(scope, notAfter: quarter.range.end) ?? quarter.range.end
            return (quarter, max(quarter.range.start, latest))
        case .asOf(let day):
            let start = engine.calendar.fiscalYearStart(containing: day)
            for number in 1...4 {
                if let quarter = engine.calendar.quarter(named: "\(start.year)Q\(number)"),
                    quarter.range.start <= day, day <= quarter.range.end
                {
                    return (quarter, day)
                }
            }
            throw PlanError("\(day.iso8601): no fiscal quarter contains it")
        }
    }

    /// Writes every pack under `directory` (nothing with `dryRun`), in plan order.
    public func publish(_ plan: PublishPlan, period: PublishPeriod, to directory: String, dryRun: Bool) throws
        -> [PackResult]
    {
        let browser = Browser()
        defer { browser.session?.close() }
        return try plan.packs.map { pack in
            let (quarter, asOf) = try resolve(period, for: pack.scope)
            return try publish(pack, quarter: quarter, asOf: asOf, to: directory, dryRun: dryRun, browser: browser)
        }
    }

    /// One Chromium for every PDF of a publish, started with the first: a browser per PDF took
    /// several times as long (docs/decisions.md#one-chromium-per-publish).
    private final class Browser {
        var session: ChromiumSession?

        func open() throws -> ChromiumSession {
            if let session { return session }
            let started = try ChromiumSession(printer: ChromiumPrinter())
            session = started
            return started
        }
    }

    private func publish(
        _ pack: PublishPlan.Pack, quarter: FiscalQuarter, asOf: CivilDate, to directory: String, dryRun: Bool,
        browser: Browser
    ) throws -> PackResult {
        let stores = try engine.storeCodes(pack.scope)
        let verdicts = try freshnessRows(stores: stores, asOf: asOf)
        let banner = Self.banner(verdicts)
        let names = pack.reports.flatMap { report in
            pack.formats.map { "\(fileStem(report, quarter: quarter, asOf: asOf)).\($0.rawValue)" }
        }
        let signature = signingKey == nil ? [] : [PackVerifier.signatureName]
        var result = PackResult(name: pack.name, files: names + ["manifest.json"] + signature, banner: banner)
        result.email = pack.email
        result.period = quarter.label
        result.asOf = asOf.iso8601
        if dryRun { return result }

        let folder = try PackFolder(name: pack.name, in: directory)
        do {
            result.alarms = try write(
                pack, stores: stores, names: names, verdicts: verdicts, banner: banner, quarter: quarter, asOf: asOf,
                into: folder, browser: browser)
            try folder.install()
        } catch {
            folder.discard()
            throw error
        }
        return result
    }

    /// Writes the pack's documents and manifest into its staging folder, returning the
    /// manifest's alarm count; a document that cannot be written is named in the error.
    private func write(
        _ pack: PublishPlan.Pack, stores: [String], names: [String], verdicts: [FreshnessRow], banner: String?,
        quarter: FiscalQuarter, asOf: CivilDate, into folder: PackFolder, browser: Browser
    ) throws -> Int {
        let options = DocumentOptions(
            neutralBand: neutralBand, dataThrough: try engine.dataThrough(pack.scope, notAfter: asOf), banner: banner)
        for report in pack.reports {
            let document = try PackDocument(
                report, engine: engine, scope: pack.scope, quarter: quarter, asOf: asOf, options: options)
            for format in pack.formats {
                let name = "\(fileStem(report, quarter: quarter, asOf: asOf)).\(format.rawValue)"
                do {
                    try document.write(format, to: folder.path(of: name), browser: browser.open)
                } catch let error as PlanError {
                    throw error
                } catch {
                    throw PackWriteError(path: "\(pack.name)/\(name)", error: error)
                }
            }
        }
        var files: [(name: String, bytes: UInt64, sha256: String)] = []
        for name in names {
            let (digest, size) = try SHA256.ofFile(folder.path(of: name))
            files.append((name, size, digest))
        }
        let alarms = try alarmCount(stores, DateRange(start: quarter.range.start, end: asOf))
        let manifest = Manifest(
            pack: pack.name, period: quarter.label, asOf: asOf, scope: Self.scopeText(pack.scope), files: files,
            freshness: verdicts, alarms: alarms)
        let bytes = Data(manifest.json.utf8)
        do {
            try bytes.write(to: URL(fileURLWithPath: folder.path(of: "manifest.json")))
        } catch {
            throw PackWriteError(path: "\(pack.name)/manifest.json", error: error)
        }
        guard let signingKey else { return alarms }
        let signature = Data((try signingKey.sign(bytes).base64EncodedString() + "\n").utf8)
        do {
            try signature.write(to: URL(fileURLWithPath: folder.path(of: PackVerifier.signatureName)))
        } catch {
            throw PackWriteError(path: "\(pack.name)/\(PackVerifier.signatureName)", error: error)
        }
        return alarms
    }

    /// `review-2025Q2`, `kpi-2025-06-30`, `employees-2025-06-30-QTD`, `merch-vendor-2025Q2`.
    private func fileStem(_ report: PackReport, quarter: FiscalQuarter, asOf: CivilDate) -> String {
        switch report {
        case .review, .merchVendor, .merchCategory: return "\(report.rawValue)-\(quarter.label)"
        case .kpi: return "kpi-\(asOf.iso8601)"
        case .employees: return "employees-\(asOf.iso8601)-QTD"
        }
    }

    /// The freshness verdicts of the pack's stores alone (event feeds judged on their dates only).
    private func freshnessRows(stores: [String], asOf: CivilDate) throws -> [FreshnessRow] {
        let codes = Set(stores)
        let records = try engine.warehouse.stores().filter { codes.contains($0.code) }
        let dates = try engine.warehouse.lastDates(notAfter: asOf).mapValues { $0.filter { codes.contains($0.key) } }
        return FreshnessReport(asOf: asOf, stores: records, lastDates: dates, policy: freshness).rows
    }

    /// `Data late: credit-apps last 2025-06-12; calls missing`: one entry per feed not `ok`,
    /// with the latest date any of the pack's stores has for it; `nil` when all are ok.
    static func banner(_ rows: [FreshnessRow]) -> String? {
        var feeds: [String] = []
        var lastDates: [String: CivilDate?] = [:]
        for row in rows where row.verdict != .ok {
            let feed = row.feed.rawValue
            if lastDates[feed] == nil { feeds.append(feed) }
            let known = lastDates[feed] ?? nil
            lastDates[feed] = [known, row.lastDate].compactMap { $0 }.max()
        }
        guard !feeds.isEmpty else { return nil }
        return "Data late: "
            + feeds.map { feed in
                (lastDates[feed] ?? nil).map { "\(feed) last \($0.iso8601)" } ?? "\(feed) missing"
            }.joined(separator: "; ")
    }

    /// The manifest's `scope`: `ALL`, `region:East`, or the store codes joined by `,`.
    static func scopeText(_ scope: ScopeFilter) -> String {
        switch scope {
        case .all: return ScopeID.all.description
        case .region(let name): return ScopeID.region(name).description
        case .stores(let codes): return codes.joined(separator: ",")
        }
    }
}

/// A pack's `manifest.json`, keys in a fixed order.
struct Manifest {
    var pack: String
    var period: String
    var asOf: CivilDate
    var scope: String
    var files: [(name: String, bytes: UInt64, sha256: String)]
    var freshness: [FreshnessRow]
    var alarms: Int

    var json: String {
        let files = self.files.map {
            "{\"name\":\(JSONText.quoted($0.name)),\"bytes\":\($0.bytes),\"sha256\":\"\($0.sha256)\"}"
        }
        let verdicts = freshness.map { row in
            "{\"feed\":\"\(row.feed.rawValue)\",\"scope\":\(JSONText.quoted(row.scope)),"
                + "\"lastDate\":\(row.lastDate.map { "\"\($0.iso8601)\"" } ?? "null"),"
                + "\"daysSince\":\(row.daysSince.map(String.init) ?? "null"),\"verdict\":\"\(row.verdict.rawValue)\"}"
        }
        return "{\"pack\":\(JSONText.quoted(pack)),\"period\":\"\(period)\",\"asOf\":\"\(asOf.iso8601)\","
            + "\"scope\":\(JSONText.quoted(scope)),\n\"files\":[\n" + files.joined(separator: ",\n")
            + "\n],\n\"freshness\":[\n" + verdicts.joined(separator: ",\n") + "\n],\n\"alarms\":\(alarms)}\n"
    }
}
