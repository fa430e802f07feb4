import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// A disk that fills during a publish or an undo (the audit's N11): exit 1, one ddkpi message,
/// no partial document, and the warehouse as it was. Runs on a small tmpfs, which only root can
/// mount; skipped elsewhere.
final class FullDiskTests: XCTestCase {
    private var mountPoint: URL!
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        mountPoint = directory.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mount = try CommandRunner.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mountPoint.path])
        guard mount.status == 0 else {
            mountPoint = nil
            throw XCTSkip("cannot mount a tmpfs here (root only): \(mount.stderr)")
        }
    }

    override func tearDownWithError() throws {
        if let mountPoint { _ = try CommandRunner.run("/bin/umount", [mountPoint.path]) }
        try FileManager.default.removeItem(at: directory)
    }

    /// Fills the small disk but for `bytes`.
    private func fill(leaving bytes: Int) throws {
        var info = statvfs()
        XCTAssertEqual(statvfs(mountPoint.path, &info), 0)
        let free = Int(info.f_bavail) * Int(info.f_frsize)
        let filler = mountPoint.appendingPathComponent("filler")
        FileManager.default.createFile(atPath: filler.path, contents: Data(count: max(0, free - bytes)))
    }

    func testAPublishOnAFullDiskExitsOneAndLeavesNoPartialDocument() throws {
        let database = directory.appendingPathComponent("w.sqlite").path
        try GoldenReportTests.ingestSamples(into: database)
        let plan = directory.appendingPathComponent("plan.toml").path
        try
            "[[pack]]\nname = \"east\"\nregion = \"East\"\nreports = [\"review\", \"kpi\", \"merch-vendor\"]\nformats = [\"xlsx\", \"html\"]\n"
            .write(toFile: plan, atomically: true, encoding: .utf8)
        let out = mountPoint.appendingPathComponent("packs").path
        try fill(leaving: 40_000)
        let result = try CommandRunner.ddkpi([
            "--db", database, "publish", "--plan", plan, "--out", out, "--quarter", "2025Q2",
        ])
        XCTAssertEqual(result.status, 1, result.stderr)
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("No space left on device"), result.stderr)
        XCTAssertFalse(result.stderr.contains("NSCocoaErrorDomain"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out), [], "no pack, whole or partial")
    }

    func testAnUndoOnAFullDiskExitsOneAndChangesNothing() throws {
        let database = mountPoint.appendingPathComponent("u.sqlite").path
        let stores = directory.appendingPathComponent("stores.csv").path
        try "code,name\n08,Natick\n10,Framingham\n".write(toFile: stores, atomically: true, encoding: .utf8)
        XCTAssertEqual(try CommandRunner.ddkpi(["--db", database, "stores", "import", stores]).status, 0)
        for (name, factor) in [("SalesAudit_base.csv", 1), ("SalesAudit_x10.csv", 10)] {
            var text = "Store,Date,Net Sales,Transactions,Items\n"
            for day in 0..<6_000 {
                let date = CivilDateText.iso(daysSince1960: day)
                for store in ["08", "10"] { text += "\(store),\(date),\((1_000 + day % 500) * factor).00,10,20\n" }
            }
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let ingested = try CommandRunner.ddkpi(["--db", database, "ingest", path])
            XCTAssertEqual(ingested.status, 0, ingested.stderr)
        }
        let runs = try CommandRunner.ddkpi(["--db", database, "runs", "--format", "json"]).stdout
        XCTAssertTrue(runs.contains("\"id\" : 3"), runs)
        try fill(leaving: 300_000)
        let undo = try CommandRunner.ddkpi(["--db", database, "ingest", "--undo", "3"])
        XCTAssertEqual(undo.status, 1, undo.stdout + undo.stderr)
        XCTAssertTrue(undo.stderr.contains("run 3 was not undone (nothing changed)"), undo.stderr)
        try FileManager.default.removeItem(at: mountPoint.appendingPathComponent("filler"))
        let after = try CommandRunner.ddkpi(["--db", database, "runs", "--format", "json"]).stdout
        XCTAssertTrue(after.contains("\"status\" : \"ok\""), after)
        XCTAssertFalse(after.contains("\"undone\""), after)
    }
}

/// Dates as ISO 8601 text, counted in days from 1960-01-01.
private enum CivilDateText {
    static func iso(daysSince1960 days: Int) -> String {
        let date = Date(timeIntervalSince1970: TimeInterval((days - 3_653) * 86_400))
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
