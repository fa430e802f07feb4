import Foundation
import KPI
import TOMLKit

/// A publish plan (SPEC section 19): the packs to write, each a folder of documents for one
/// director's scope.
///
/// ```toml
/// [[pack]]
/// name = "08-natick"                 # folder name under the output directory
/// stores = ["08"]                    # or region = "East", or all = true
/// reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
/// formats = ["pdf", "xlsx", "html"]
/// email = ["dir08@example.com"]     # optional: whom `publish --send` mails the pack (SPEC section 24)
/// ```
public struct PublishPlan: Sendable {
    /// One pack of the plan.
    public struct Pack: Sendable {
        public var name: String
        public var scope: ScopeFilter
        public var reports: [PackReport]
        public var formats: [PackFormat]
        /// The addresses `publish --send` mails the pack's PDFs (or XLSX) to.
        public var email: [String] = []
    }

    public var packs: [Pack]

    /// Parses the plan's text; errors name `file` and the line of the pack or key at fault.
    public init(text: String, file: String) throws {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw PlanError("\(file) line \(error.source.begin.line): \(error.description)")
        }
        let lines = PlanLines(text: text)
        for key in table.keys where key != "pack" {
            throw PlanError(
                "\(file) line \(lines.line(of: key, inPack: nil)): unknown setting \"\(key)\"; expected [[pack]] tables"
            )
        }
        guard let packs = table["pack"]?.array, !packs.isEmpty else {
            throw PlanError("\(file) line 1: no [[pack]] table; expected at least one pack")
        }
        var names: Set<String> = []
        self.packs = try packs.enumerated().map { index, value in
            let at = { (key: String?) in "\(file) line \(lines.line(of: key, inPack: index))" }
            guard let pack = value.table else { throw PlanError("\(at(nil)): expected a [[pack]] table") }
            let parsed = try Self.pack(pack, at: at)
            guard names.insert(parsed.name).inserted else {
                throw PlanError(
                    "\(at("name")): name \"\(parsed.name)\" is used by an earlier pack; each pack needs its own folder")
            }
            return parsed
        }
    }

    /// The longest pack name, in UTF-8 bytes: with the hidden names a publish writes beside a
    /// pack (`PackFolder`), within the usual 255-byte limit of a file name.
    static let maximumNameBytes = 200

    /// Whether `name` can name a pack's folder on its own: no path separator, no control
    /// character, not hidden (a publish's own working names start with a dot), not too long.
    static func isFolderName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && name.utf8.count <= maximumNameBytes
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func pack(_ table: TOMLTable, at: (String?) -> String) throws -> Pack {
        for key in table.keys where !["name", "stores", "region", "all", "reports", "formats", "email"].contains(key) {
            throw PlanError(
                "\(at(key)): unknown key \"\(key)\"; expected name, stores, region, all, reports, formats, email")
        }
        guard let name = table["name"]?.string, isFolderName(name) else {
            throw PlanError(
                "\(at("name")): name: expected a folder name of at most \(maximumNameBytes) bytes, "
                    + "not starting with \".\", without \"/\" or control characters")
        }
        let scopes = ["stores", "region", "all"].filter { table.contains(key: $0) }
        guard scopes.count == 1 else {
            throw PlanError(
                "\(at(nil)): pack \"\(name)\": expected exactly one of stores = [...], region = \"...\" or all = true")
        }
        let scope: ScopeFilter
        switch scopes[0] {
        case "stores":
            guard let codes = table["stores"]?.array?.compactMap({ $0.string }), !codes.isEmpty,
                codes.count == table["stores"]?.array?.count
            else { throw PlanError("\(at("stores")): stores: expected a list of store codes such as [\"08\"]") }
            scope = .stores(codes)
        case "region":
            guard let region = table["region"]?.string, !region.isEmpty else {
                throw PlanError("\(at("region")): region: expected a region name such as \"East\"")
            }
            scope = .region(region)
        default:
            guard table["all"]?.bool == true else { throw PlanError("\(at("all")): all: expected true") }
            scope = .all
        }
        var email: [String] = []
        if table.contains(key: "email") {
            let items = table["email"]?.array.map { Array($0) } ?? []
            email = items.compactMap { $0.string }
            guard email.count == items.count, !email.isEmpty,
                email.allSatisfy({
                    $0.contains("@") && !$0.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" })
                })
            else {
                throw PlanError("\(at("email")): email: expected a list of addresses such as [\"dir08@example.com\"]")
            }
        }
        return Pack(
            name: name, scope: scope, reports: try list(table, "reports", at: at),
            formats: try list(table, "formats", at: at), email: email)
    }

    /// A non-empty list of known names, in the plan's order.
    private static func list<Item: RawRepresentable & CaseIterable>(
        _ table: TOMLTable, _ key: String, at: (String?) -> String
    ) throws -> [Item] where Item.RawValue == String {
        let known = Item.allCases.map(\.rawValue).joined(separator: ", ")
        guard let values = table[key]?.array, !values.isEmpty else {
            throw PlanError("\(at(key)): \(key): expected a list of \(known)")
        }
        return try values.map { value in
            guard let text = value.string, let item = Item(rawValue: text) else {
                throw PlanError("\(at(key)): \(key): \(value) is not one of \(known)")
            }
            return item
        }
    }
}

/// A report a pack can hold.
public enum PackReport: String, CaseIterable, Sendable {
    case review, kpi, employees
    case merchVendor = "merch-vendor"
    case merchCategory = "merch-category"
}

/// A document format a pack can hold.
public enum PackFormat: String, CaseIterable, Sendable {
    case pdf, xlsx, html
}

/// A plan that cannot be used: exit code 2, naming the plan's line.
public struct PlanError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Where packs and keys stand in the plan's text (TOMLKit's values carry no positions).
private struct PlanLines {
    let lines: [Substring]

    init(text: String) { lines = text.split(separator: "\n", omittingEmptySubsequences: false) }

    /// The line (1-based) of `key` in pack `index` (the `[[pack]]` header without a key), or of a
    /// top-level key when `index` is `nil`.
    func line(of key: String?, inPack index: Int?) -> Int {
        let headers = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("[[pack]]") }
        var range = lines.indices
        if let index, index < headers.count {
            range = headers[index]..<(index + 1 < headers.count ? headers[index + 1] : lines.count)
        } else if index == nil, let first = headers.first {
            range = 0..<first
        }
        guard let key else { return range.lowerBound + 1 }
        let found = range.first { number in
            let line = lines[number].drop { $0 == " " || $0 == "\t" }
            return line.hasPrefix(key) && line.dropFirst(key.count).drop { $0 == " " }.hasPrefix("=")
        }
        return (found ?? range.lowerBound) + 1
    }
}
