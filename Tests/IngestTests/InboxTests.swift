import Feeds
import Foundation
import TestSupport
import XCTest

@testable import Ingest
@testable import Warehouse

/// The cron inbox's rules (SPEC section 5), without a warehouse: which files a run takes, in
/// what order, and where each outcome sends its file.
final class InboxTests: XCTestCase {
    private var directory: URL!
    private var inbox: Inbox!

    override func setUpWithError() throws {
        directory = try TestPaths.temporaryDirectory()
        let folder = directory.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The archive and quarantine are made, their parent is not (a mistyped path is refused).
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("done"), withIntermediateDirectories: true)
        inbox = try Inbox(
            folder: folder.path, archive: directory.appendingPathComponent("done/archive").path,
            quarantine: directory.appendingPathComponent("done/quarantine").path)
    }

    override func tearDownWithError() throws { try FileManager.default.removeItem(at: directory) }

    /// Writes `text` to `name` in `folder` (default: the inbox) and returns its path.
    @discardableResult
    private func put(_ name: String, _ text: String = "x\n", in folder: URL? = nil) throws -> String {
        try TestPaths.write(Array(text.utf8), named: name, in: folder ?? inbox.folder)
    }

    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    private func outcome(_ path: String, _ status: IngestStatus, error: String? = nil, rejects: Int = 0)
        -> IngestOutcome
    {
        var outcome = IngestOutcome(path: path, status: status)
        outcome.error = error
        outcome.rejects = (0..<rejects).map {
            Reject(
                file: "f.csv", sheet: "f", row: $0 + 2, column: "B", header: "Net Sales", value: "x",
                reason: "is not a number")
        }
        outcome.rejected = rejects
        return outcome
    }

    func testInitCreatesTheArchiveAndQuarantineFolders() throws {
        var isFolder: ObjCBool = false
        for folder in [inbox.archive, inbox.quarantine] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), folder.path)
            XCTAssertTrue(isFolder.boolValue)
        }
    }

    func testCandidatesAreTheVisibleRegularFilesInNameOrder() throws {
        for name in ["sales_b.csv", "Sales_c.xlsx", "credit_a.csv", ".hidden.csv", "old.csv.reason.txt"] {
            try put(name)
        }
        try FileManager.default.createDirectory(
            at: inbox.folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try put("nested.csv", in: inbox.folder.appendingPathComponent("sub"))
        XCTAssertEqual(
            try inbox.candidateFiles(),
            ["Sales_c.xlsx", "credit_a.csv", "sales_b.csv"].map { inbox.folder.appendingPathComponent($0).path })
    }

    func testAMissingInboxIsAMissingPath() throws {
        let gone = try Inbox(
            folder: directory.appendingPathComponent("nowhere").path, archive: inbox.archive.path,
            quarantine: inbox.quarantine.path)
        XCTAssertThrowsError(try gone.candidateFiles()) { error in
            XCTAssertEqual("\(error)", "\(gone.folder.path): no such file or folder")
        }
    }

    func testIngestPathsTakeFilesAsGivenAndFoldersInNameOrder() throws {
        let loose = try put("zz.csv", in: directory)
        try put("b.csv")
        try put("a.csv")
        XCTAssertEqual(
            try IngestPaths.files([loose, inbox.folder.path]),
            [
                loose, inbox.folder.appendingPathComponent("a.csv").path,
                inbox.folder.appendingPathComponent("b.csv").path,
            ])
        XCTAssertThrowsError(try IngestPaths.files(["/no/such/file.csv"])) { error in
            XCTAssertEqual((error as? MissingIngestPath)?.path, "/no/such/file.csv")
        }
    }

    func testOkAndDuplicateGoToTheArchiveAndFailuresToQuarantineWithTheirReason() {
        XCTAssertEqual(Inbox.destination(for: outcome("a.csv", .ok)), .archive)
        XCTAssertEqual(Inbox.destination(for: outcome("a.csv", .duplicate)), .archive)
        XCTAssertEqual(
            Inbox.destination(for: outcome("a.csv", .failed, error: "a.csv: cannot tell which feed this is")),
            .quarantine(reason: "a.csv: cannot tell which feed this is\n"))
        XCTAssertEqual(Inbox.destination(for: outcome("a.csv", .failed)), .quarantine(reason: "failed\n"))
    }

    func testAQuarantineReasonListsTheFirst50Rejects() throws {
        guard
            case .quarantine(let reason, _) = Inbox.destination(
                for: outcome("a.csv", .failed, error: "too many rejects", rejects: 60))
        else {
            return XCTFail("a failure goes to quarantine")
        }
        let lines = reason.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 51)
        XCTAssertEqual(lines.first, "too many rejects")
        XCTAssertEqual(lines[1], "reject: f.csv!f row 2, column B (Net Sales): \"x\" is not a number")
        XCTAssertEqual(lines.last, "reject: f.csv!f row 51, column B (Net Sales): \"x\" is not a number")
    }

    func testFilingMovesUnderAFreeNameAndWritesTheReasonBeside() throws {
        try put("sales.csv", "old\n", in: inbox.archive)
        try put("sales.csv.2", "older\n", in: inbox.archive)
        let archived = try inbox.file(try put("sales.csv", "new\n"), to: .archive)
        XCTAssertEqual(archived.lastPathComponent, "sales.csv.3")
        XCTAssertEqual(try String(contentsOf: archived, encoding: .utf8), "new\n")

        try assertJunkQuarantinedWithItsReason()
    }

    /// The reason goes first, the file after it: a run killed between the two leaves a reason
    /// and the file still in the inbox, and the next run quarantines the file under the same
    /// name with its reason written again (never a quarantined file without one).
    func testAReasonLeftByAKilledRunIsWrittenAgainWithItsFile() throws {
        try put("junk.csv.reason.txt", "junk.csv: from the killed run\n", in: inbox.quarantine)
        try assertJunkQuarantinedWithItsReason()
    }

    /// Quarantines a new `junk.csv` and checks it lands there under its own name, its reason
    /// beside it, the inbox empty.
    private func assertJunkQuarantinedWithItsReason() throws {
        let quarantined = try inbox.file(try put("junk.csv"), to: .quarantine(reason: "junk.csv: unreadable\n"))
        XCTAssertEqual(quarantined, inbox.quarantine.appendingPathComponent("junk.csv"))
        XCTAssertEqual(try names(in: inbox.quarantine), ["junk.csv", "junk.csv.reason.txt"])
        XCTAssertEqual(
            try String(contentsOf: inbox.quarantine.appendingPathComponent("junk.csv.reason.txt"), encoding: .utf8),
            "junk.csv: unreadable\n")
        XCTAssertEqual(try names(in: inbox.folder), [])
    }

    func testARunIngestsInOrderReportsEachOutcomeThenFilesIt() throws {
        for name in ["c_dup.csv", "a_ok.csv", "b_bad.csv"] { try put(name) }
        var ingested: [String] = []
        var reported: [(name: String, stillInInbox: Bool)] = []
        try inbox.run(
            ingest: { path in
                ingested.append(URL(fileURLWithPath: path).lastPathComponent)
                let status: IngestStatus =
                    path.hasSuffix("ok.csv") ? .ok : path.hasSuffix("bad.csv") ? .failed : .duplicate
                return outcome(path, status, error: status == .failed ? "b_bad.csv: unreadable" : nil)
            },
            report: {
                reported.append(
                    (URL(fileURLWithPath: $0.path).lastPathComponent, FileManager.default.fileExists(atPath: $0.path)))
            })
        XCTAssertEqual(ingested, ["a_ok.csv", "b_bad.csv", "c_dup.csv"])
        XCTAssertEqual(reported.map(\.name), ingested)
        XCTAssertTrue(reported.allSatisfy(\.stillInInbox), "each outcome is reported before its file moves")
        XCTAssertEqual(try names(in: inbox.folder), [])
        XCTAssertEqual(try names(in: inbox.archive), ["a_ok.csv", "c_dup.csv"])
        XCTAssertEqual(try names(in: inbox.quarantine), ["b_bad.csv", "b_bad.csv.reason.txt"])
    }

    /// Issue 20, defect 2: a file that failed for a reason outside itself stays in the inbox,
    /// and the run stops there, so a lost server never quarantines good files.
    func testAFailureOutsideTheFileLeavesItAndTheRestInTheInbox() throws {
        for name in ["a.csv", "b.csv", "c.csv"] { try put(name) }
        var seen: [String] = []
        let stopped = try inbox.run(
            ingest: { path in
                seen.append(URL(fileURLWithPath: path).lastPathComponent)
                guard path.hasSuffix("b.csv") else { return self.outcome(path, .ok) }
                var lost = self.outcome(path, .failed, error: "PostgreSQL: server closed the connection unexpectedly")
                lost.outsideFailure = .server
                return lost
            }, report: { _ in })
        XCTAssertEqual(stopped, .server)
        XCTAssertEqual(seen, ["a.csv", "b.csv"], "the run stops at the first failure outside a file")
        XCTAssertEqual(try names(in: inbox.folder), ["b.csv", "c.csv"])
        XCTAssertEqual(try names(in: inbox.quarantine), [])
        XCTAssertEqual(try names(in: inbox.archive), ["a.csv"])
    }

    /// Issue 20, defect 4: a FIFO (or a link to a device) in the inbox hung the run forever.
    func testOnlyRegularFilesAreTakenAndTheRestSkippedUnopened() throws {
        try put("a.csv")
        XCTAssertEqual(mkfifo(inbox.folder.appendingPathComponent("b_fifo.csv").path, 0o644), 0)
        try FileManager.default.createSymbolicLink(
            atPath: inbox.folder.appendingPathComponent("c_zero.csv").path, withDestinationPath: "/dev/zero")
        var skipped: [String] = []
        let files = try inbox.candidateFiles(skipped: { skipped.append($0.description) })
        XCTAssertEqual(files.map { URL(fileURLWithPath: $0).lastPathComponent }, ["a.csv"])
        XCTAssertEqual(skipped.count, 2)
        XCTAssertTrue(
            skipped[0].hasSuffix(
                "b_fifo.csv: skipped, a FIFO and not a regular file (only regular files are ingested)"), skipped[0])
        XCTAssertTrue(skipped[1].contains("c_zero.csv: skipped, a device"), skipped[1])
        // Named on the command line, it is never opened either, and is a mistake to say so.
        XCTAssertThrowsError(try IngestPaths.files([inbox.folder.appendingPathComponent("b_fifo.csv").path])) {
            XCTAssertEqual(($0 as? SkippedPath)?.kind, .fifo)
        }
    }
}
