import ArgumentParser
import Checks
import Feeds
import Ingest
import Warehouse

/// `ddkpi-bench ingest-file`: one sales-audit file ingested through `FileIngestor` in this
/// process, with the wrong-data checks (the default, `on_ingest = "warn"`) or without them
/// (`--no-checks`): the child `ddkpi-bench ingest --gate-pairs N` times, so that the ingest gate
/// is measured against the same build with it switched off (SPEC section 18's 10 %).
struct IngestFileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest-file",
        abstract: "Ingest one sales-audit file in this process, with or without the wrong-data checks.")

    @Option(help: "The warehouse: a SQLite path or a postgresql:// URL (it must hold the file's stores).")
    var db: String

    @Flag(help: "Run no wrong-data checks on ingest (the gate switched off).")
    var noChecks = false

    @Argument(help: "The sales-audit file.")
    var file: String

    func run() throws {
        let ingestor = FileIngestor(
            warehouse: try Warehouse(path: db), explicitFeed: .salesAudit,
            options: IngestOptions(checks: noChecks ? nil : CheckSettings()))
        let outcome = ingestor.ingest(file)
        guard outcome.status == .ok else {
            throw BenchError("ingest-file: \(outcome.status.rawValue): \(outcome.error ?? "")")
        }
        print(
            "read=\(outcome.read) inserted=\(outcome.counts.inserted) updated=\(outcome.counts.updated) alarms=\(outcome.alarms.count)"
        )
    }
}
