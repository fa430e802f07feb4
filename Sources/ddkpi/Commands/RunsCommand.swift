import ArgumentParser
import Foundation
import SheetStream
import Warehouse

/// `ddkpi runs`: the ingest ledger, newest first.
struct RunsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "runs", abstract: "Show the ingest ledger, newest first.")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var global: GlobalOptions

    @Option(help: "How many runs to show.")
    var limit = 20

    @Option(help: "Output format: table or json (json includes every count and the stored rejects).")
    var format: Format = .table

    func run() throws {
        let configuration = try global.configuration()
        let runs = try global.openWarehouse(configuration).runs(limit: limit)
        let output = TextOutput()
        switch format {
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            output.write(String(decoding: try encoder.encode(runs), as: UTF8.self) + "\n")
        case .table:
            output.write("  id  status     feed             read  ins   upd   same  skip  rej  finished                  file\n")
            for run in runs {
                let columns = [
                    String(run.id).leftPadded(4), run.status.padded(to: 10), (run.feed ?? "?").padded(to: 16),
                    String(run.read).leftPadded(5), String(run.inserted).leftPadded(5), String(run.updated).leftPadded(5),
                    String(run.unchanged).leftPadded(5), String(run.skipped).leftPadded(5), String(run.rejected).leftPadded(4),
                    " " + String(run.finishedAt.prefix(24)).padded(to: 25), run.path,
                ]
                output.write(columns.joined(separator: " ") + "\n")
            }
        }
        output.flush()
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
