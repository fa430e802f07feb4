import ArgumentParser
import Foundation
import OutputText
import Reports
import Warehouse

/// `ddkpi runs`: the ingest ledger (`runs list`, the default) or one run (`runs show RUN`).
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "runs",
        abstract: "Show the ingest ledger, newest first (`runs show RUN`: one run and what it changed).",
        subcommands: [RunsListCommand.self, RunsShowCommand.self], defaultSubcommand: RunsListCommand.self)
}

/// `ddkpi runs [list]`: the ingest ledger, newest first.
struct RunsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Show the ingest ledger, newest first.")

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many runs to show.")
    var limit = 20

    @Option(help: "Output format: table or json (json includes every count you may read and the stored rejects).")
    var format = FormatOption<TableOrJSON>.standard

    func run() throws {
        let configuration = try global.configuration()
        let runs = try global.openWarehouse(configuration).runs(limit: limit)
        let output = TextOutput()
        if format.value == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output.write(String(decoding: try encoder.encode(runs), as: UTF8.self) + "\n")
        } else {
            // Counts right-aligned, the path last and free.
            var table = TextTable(
                alignments: [.right, .left, .left] + Array(repeating: .right, count: 6) + [.left, .left, .left],
                separator: "  ")
            table.add(["id", "status", "feed", "read", "ins", "upd", "same", "skip", "rej", "finished", "by", "file"])
            for run in runs {
                table.add([
                    String(run.id), run.status, run.feed ?? "?", Self.count(run.read), String(run.inserted),
                    String(run.updated),
                    String(run.unchanged), Self.count(run.skipped), Self.count(run.rejected),
                    String(run.finishedAt.prefix(24)),
                    run.by, run.source,
                ])
            }
            output.write(table.render())
        }
        output.flush()
    }

    /// A whole-file count, or `—` where the reader sees only its stores' counts.
    private static func count(_ value: Int?) -> String { value.map(String.init) ?? "—" }
}
