import Foundation
import SheetStream
import TestSupport
import Warehouse
import XCTest

/// `ddkpi publish` (SPEC section 19) on the sample warehouse of `GoldenReportTests`.
extension GoldenReportTests {
    /// The sample chain: code, name, region.
    private static let sampleStores = [
        ("08", "Natick", "East"), ("10", "Framingham", "East"), ("12", "Burlington", "East"),
        ("21", "Warwick", "South"), ("23", "Dartmouth", "South"), ("27", "Hyannis", "South"),
    ]

    /// A pack per store and per region: every file of every pack (HTML text, XLSX cells through
    /// `ddkpi dump`, PDF text through `pdftotext` for one store's pack) names no store outside
    /// the pack's scope, and no company totals; a rerun gives the same bytes.
    func testPacksHoldOnlyTheirOwnStores() throws {
        let database = try sampleDatabase()
        let withPDF = Self.tool("pdftotext") != nil && Self.tool("chromium") != nil
        var plan = ""
        for (code, name, _) in Self.sampleStores {
            let formats = withPDF && code == "08" ? "\"html\", \"xlsx\", \"pdf\"" : "\"html\", \"xlsx\""
            plan += """
                [[pack]]
                name = "\(code)-\(name.lowercased())"
                stores = ["\(code)"]
                reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
                formats = [\(formats)]

                """
        }
        for region in ["East", "South"] {
            plan += """
                [[pack]]
                name = "\(region.lowercased())"
                region = "\(region)"
                reports = ["review", "kpi", "employees", "merch-vendor", "merch-category"]
                formats = ["html", "xlsx"]

                """
        }
        let planPath = try scratchPath("plan.toml")
        try plan.write(toFile: planPath, atomically: true, encoding: .utf8)
        let out = try scratchPath("packs")
        let result = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", planPath, "--out", out, "--quarter", "2025Q2",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)

        var scanned = 0
        let staff = try associatesByStore(database)
        for (code, name, _) in Self.sampleStores {
            try assertScope(
                folder: "\(out)/\(code)-\(name.lowercased())", allowed: { $0.0 == code }, staff: staff,
                scanned: &scanned)
        }
        for region in ["East", "South"] {
            try assertScope(
                folder: "\(out)/\(region.lowercased())", allowed: { $0.2 == region }, staff: staff, scanned: &scanned)
        }
        XCTAssertGreaterThanOrEqual(scanned, 6 * 10 + 2 * 10)

        let manifest = try String(contentsOfFile: "\(out)/08-natick/manifest.json", encoding: .utf8)
        XCTAssertTrue(
            manifest.hasPrefix("{\"pack\":\"08-natick\",\"period\":\"2025Q2\",\"asOf\":\"2025-06-30\",\"scope\":\"08\"")
        )
        XCTAssertTrue(manifest.contains("\"alarms\":0}"))
        let rerun = try scratchPath("packs-again")
        _ = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", planPath, "--out", rerun, "--quarter", "2025Q2",
        ])
        for pack in ["08-natick", "east"] {
            for file in try FileManager.default.contentsOfDirectory(atPath: "\(out)/\(pack)") {
                XCTAssertEqual(
                    FileManager.default.contents(atPath: "\(out)/\(pack)/\(file)"),
                    FileManager.default.contents(atPath: "\(rerun)/\(pack)/\(file)"), "\(pack)/\(file) byte-identical")
            }
        }
    }

    func testAPlanErrorNamesItsLineAndExitsTwo() throws {
        let database = try sampleDatabase()
        let planPath = try scratchPath("bad-plan.toml")
        try "[[pack]]\nname = \"x\"\nstores = [\"08\"]\nreports = [\"review\"]\nformats = [\"doc\"]\n".write(
            toFile: planPath, atomically: true, encoding: .utf8)
        let result = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", planPath, "--out", try scratchPath("none"), "--quarter", "2025Q2",
        ])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(
            result.stderr.contains("bad-plan.toml line 5: formats: \"doc\" is not one of pdf, xlsx, html"),
            result.stderr)
        let goodPlan = try scratchPath("dry-plan.toml")
        try "[[pack]]\nname = \"08-natick\"\nstores = [\"08\"]\nreports = [\"review\"]\nformats = [\"html\"]\n".write(
            toFile: goodPlan, atomically: true, encoding: .utf8)
        let dry = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", goodPlan,
            "--out", try scratchPath("dry"), "--as-of", "2025-06-15", "--dry-run",
        ])
        XCTAssertEqual(dry.status, 0, dry.stderr)
        XCTAssertTrue(dry.stdout.contains("08-natick/: review-2025Q2.html"), dry.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: try scratchPath("dry")), "a dry run writes nothing")
    }

    /// A re-published pack folder holds exactly its manifest's files (the audit's N5), and a
    /// link already at a pack's or a document's place is replaced, never written through (N9).
    /// A signed pack verifies; a rerun signs the same bytes; a changed byte, an added file or
    /// another key fails naming what (SPEC section 23).
    func testASignedPackVerifiesAndAChangedByteIsNamed() throws {
        let database = try sampleDatabase()
        let keys = try scratchPath("signing")
        for suffix in [".pem", ".pub.pem"] { try? FileManager.default.removeItem(atPath: keys + suffix) }
        XCTAssertEqual(try CommandRunner.ddkpi(["keys", "generate", "--out", keys]).status, 0)
        let permissions = try FileManager.default.attributesOfItem(atPath: keys + ".pem")[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600, "the private key is the owner's alone")
        let again = try CommandRunner.ddkpi(["keys", "generate", "--out", keys])
        XCTAssertEqual(again.status, 2, "never overwritten")
        XCTAssertTrue(again.stderr.contains("exists: a key is never overwritten"), again.stderr)
        XCTAssertFalse(again.stderr.contains("Usage:"), "a key that exists is no usage error: \(again.stderr)")

        let plan = try scratchPath("signed.toml")
        try "[[pack]]\nname = \"east\"\nregion = \"East\"\nreports = [\"kpi\"]\nformats = [\"html\", \"xlsx\"]\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        func publish(_ out: String) throws -> CommandRunner.Result {
            try CommandRunner.ddkpi([
                "--db", database, "publish", "--plan", plan, "--out", out, "--as-of", "2025-06-15", "--sign",
                keys + ".pem",
            ])
        }
        let out = try scratchPath("signed-packs")
        let published = try publish(out)
        XCTAssertEqual(published.status, 0, published.stderr)
        XCTAssertTrue(published.stdout.contains("manifest.json, manifest.json.sig"), published.stdout)
        let pack = out + "/east"
        let verify = { (key: String) in try CommandRunner.ddkpi(["verify", pack, "--key", key]) }
        let verified = try verify(keys + ".pub.pem")
        XCTAssertEqual(verified.status, 0, verified.stdout + verified.stderr)
        XCTAssertEqual(verified.stdout, "\(pack): signature and every file hold\n")

        let rerun = try scratchPath("signed-rerun")
        XCTAssertEqual(try publish(rerun).status, 0)
        XCTAssertEqual(
            FileManager.default.contents(atPath: rerun + "/east/manifest.json.sig"),
            FileManager.default.contents(atPath: pack + "/manifest.json.sig"), "Ed25519 signs the same bytes alike")

        let html = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: pack).first { $0.hasSuffix(".html") })
        var bytes = try XCTUnwrap(FileManager.default.contents(atPath: pack + "/" + html))
        bytes[bytes.count / 2] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: pack + "/" + html))
        try Data("x".utf8).write(to: URL(fileURLWithPath: pack + "/extra.txt"))
        let tampered = try verify(keys + ".pub.pem")
        XCTAssertEqual(tampered.status, 1)
        XCTAssertEqual(
            tampered.stdout,
            "\(pack)/\(html): its SHA-256 differs from manifest.json's\n\(pack)/extra.txt: present but not listed in manifest.json\n"
        )
        XCTAssertEqual(try verify(keys + ".pem").status, 1, "the private key verifies as its public half")
        let other = try scratchPath("other-key")
        for suffix in [".pem", ".pub.pem"] { try? FileManager.default.removeItem(atPath: other + suffix) }
        XCTAssertEqual(try CommandRunner.ddkpi(["keys", "generate", "--out", other]).status, 0)
        XCTAssertTrue(try verify(other + ".pub.pem").stdout.contains("manifest.json.sig: does not match"))
        XCTAssertEqual(try CommandRunner.ddkpi(["verify", out, "--key", keys + ".pub.pem"]).status, 2, "no manifest")
        let unsigned = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", plan, "--out", try scratchPath("x"), "--quarter", "2025Q2",
            "--sign", keys + ".pub.pem",
        ])
        XCTAssertEqual(unsigned.status, 2)
        XCTAssertTrue(unsigned.stderr.contains("a public key cannot sign"), unsigned.stderr)
        XCTAssertFalse(unsigned.stderr.contains("BEGIN"), "no key material in a message")
    }

    func testARepublishedPackHoldsOnlyItsFilesAndLinksAreNotFollowed() throws {
        let database = try sampleDatabase()
        let out = try scratchPath("packs-swap")
        func publish(_ plan: String) throws -> CommandRunner.Result {
            let path = try scratchPath("swap.toml")
            try plan.write(toFile: path, atomically: true, encoding: .utf8)
            return try CommandRunner.ddkpi([
                "--db", database, "publish", "--plan", path, "--out", out, "--as-of", "2025-06-15",
            ])
        }
        let wide = "[[pack]]\nname = \"natick\"\nall = true\nreports = [\"review\", \"kpi\"]\nformats = [\"html\"]\n"
        XCTAssertEqual(try publish(wide).status, 0)
        let narrow = "[[pack]]\nname = \"natick\"\nstores = [\"08\"]\nreports = [\"kpi\"]\nformats = [\"html\"]\n"
        XCTAssertEqual(try publish(narrow).status, 0)
        let manager = FileManager.default
        XCTAssertEqual(
            try manager.contentsOfDirectory(atPath: out).sorted(), ["natick"], "no working folder is left behind")
        XCTAssertEqual(
            try manager.contentsOfDirectory(atPath: "\(out)/natick").sorted(), ["kpi-2025-06-15.html", "manifest.json"])

        // A document's name that is a link to a file outside: the link is replaced, the file kept.
        let victim = try scratchPath("victim.txt")
        try "precious".write(toFile: victim, atomically: true, encoding: .utf8)
        try manager.removeItem(atPath: "\(out)/natick/kpi-2025-06-15.html")
        try manager.createSymbolicLink(atPath: "\(out)/natick/kpi-2025-06-15.html", withDestinationPath: victim)
        XCTAssertEqual(try publish(narrow).status, 0)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious")
        // A pack folder that is a link to a folder outside: the pack lands in --out.
        let elsewhere = try scratchPath("elsewhere")
        try manager.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        try manager.removeItem(atPath: "\(out)/natick")
        try manager.createSymbolicLink(atPath: "\(out)/natick", withDestinationPath: elsewhere)
        XCTAssertEqual(try publish(narrow).status, 0)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: elsewhere), [])
        XCTAssertNil(try? manager.destinationOfSymbolicLink(atPath: "\(out)/natick"), "a folder, no longer a link")
        XCTAssertEqual(
            try manager.contentsOfDirectory(atPath: "\(out)/natick").sorted(), ["kpi-2025-06-15.html", "manifest.json"])

        // Names a folder cannot safely take are refused with the plan's line (N13).
        for name in ["a\\nb", String(repeating: "a", count: 300), ".hidden"] {
            let refused = try publish(
                "[[pack]]\nname = \"\(name)\"\nstores = [\"08\"]\nreports = [\"kpi\"]\nformats = [\"html\"]\n")
            XCTAssertEqual(refused.status, 2, name)
            XCTAssertTrue(refused.stderr.contains("swap.toml line 2: name: expected a folder name"), refused.stderr)
        }
    }

    /// Every file's text holds no other store's name or `NN Name`, no associate who did not
    /// work at the pack's stores in the quarter (by name: the samples' ids are short numbers
    /// that prices contain), and no `All stores`.
    private func assertScope(
        folder: String, allowed: ((String, String, String)) -> Bool, staff: [String: Set<String>], scanned: inout Int
    ) throws {
        let own = Self.sampleStores.filter(allowed).map(\.0)
        let ownStaff = Set(own.flatMap { staff[$0] ?? [] })
        let otherStaff = Set(staff.values.flatMap { $0 }).subtracting(ownStaff)
        XCTAssertFalse(otherStaff.isEmpty, "\(folder): some associates work elsewhere only")
        let forbidden =
            Self.sampleStores.filter { !allowed($0) }.flatMap { [$0.1, "\($0.0) \($0.1)"] } + ["All stores"]
            + otherStaff.sorted()
        try PackScanner.assertNone(of: forbidden, inPack: folder, scanned: &scanned)
    }

    /// The names of the associates with sales at each store in 2025Q2.
    private func associatesByStore(_ database: String) throws -> [String: Set<String>] {
        let warehouse = try Warehouse(location: DatabaseLocation(database), mode: .readOnly)
        var staff: [String: Set<String>] = [:]
        for row in try warehouse.rows(
            """
            SELECT DISTINCT r.store_code, e.name FROM employee_report r JOIN employee e ON e.employee_id = r.employee_id
            WHERE r.date BETWEEN '2025-04-01' AND '2025-06-30'
            """, columns: 2)
        {
            if let store = row[0], let name = row[1] { staff[store, default: []].insert(name) }
        }
        return staff
    }
}

/// Reads every file of a pack as text (HTML as written, XLSX cells, PDF through `pdftotext`)
/// and fails on any forbidden string.
enum PackScanner {
    static func assertNone(
        of forbidden: [String], inPack folder: String, scanned: inout Int, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where name != "manifest.json" {
            let path = "\(folder)/\(name)"
            let text = try self.text(of: path)
            scanned += 1
            for word in forbidden where text.contains(word) {
                XCTFail("\(path) names \(word)", file: file, line: line)
            }
        }
    }

    static func text(of path: String) throws -> String {
        if path.hasSuffix(".html") { return try String(contentsOfFile: path, encoding: .utf8) }
        if path.hasSuffix(".xlsx") {
            let workbook = try SpreadsheetFile.open(path: path)
            var text = ""
            for sheet in workbook.sheets {
                text += sheet.name + "\n"
                try workbook.readRows(of: sheet) { row in
                    for cell in row.cells { text += "\(cell)\t" }
                    text += "\n"
                }
            }
            return text
        }
        let output = path + ".txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        XCTAssertEqual(
            try GoldenReportTests.run(try XCTUnwrap(GoldenReportTests.tool("pdftotext")), [path, output]), 0)
        return try String(contentsOfFile: output, encoding: .utf8)
    }
}

extension GoldenReportTests {
    /// `[documents] neutral_band`: changes inside it keep their ▲/▼ and lose their colour.
    func testTheNeutralBandComesFromTheConfig() throws {
        let database = try sampleDatabase()
        let config = try scratchPath("band.toml")
        let arguments = [
            "--db", database, "--config", config, "review", "--quarter", "2025Q2", "--store", "08", "--format", "html",
        ]
        try "[documents]\nneutral_band = \"3%\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let wide = try CommandRunner.ddkpi(arguments)
        XCTAssertEqual(wide.status, 0, wide.stderr)
        XCTAssertTrue(wide.stdout.contains("<td class=\"level\">▲ +2.4%</td>"), "08's quarter sales vs target")
        try "[documents]\nneutral_band = 0.005\n".write(toFile: config, atomically: true, encoding: .utf8)
        XCTAssertTrue(try CommandRunner.ddkpi(arguments).stdout.contains("<td class=\"up-text\">▲ +2.4%</td>"))
        try "[documents]\nneutral_band = \"wide\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let bad = try CommandRunner.ddkpi(arguments)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(
            bad.stderr.contains(
                "documents.neutral_band: expected neutral_band = a fraction such as 0.005, or \"0.5%\""),
            bad.stderr)
    }
}
