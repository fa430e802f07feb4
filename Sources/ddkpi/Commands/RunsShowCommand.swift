import ArgumentParser
import OutputText
import Reports
import Warehouse

/// `ddkpi runs show RUN`: one run and what it changed (SPEC section 16).
struct RunsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: its ledger row, counts per store, and the keys it changed (old → new).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The run's id (see `ddkpi runs`).")
    var id: Int64

    @Option(help: "Output format: table or json.")
    var format = FormatOption<TableOrJSON>.standard

    @Option(help: "How many changed keys to list.")
    var limit = 20

    func run() throws {
        let configuration = try global.configuration()
        guard let details = try global.openWarehouse(configuration).runDetails(id: id, limit: limit) else {
            Diagnostics.error("there is no run \(id) in the ledger (see `ddkpi runs`)")
            throw ExitCode(ExitStatus.usage)
        }
        let output = TextOutput()
        output.write(format.value == .json ? try RunDetailsRenderer.json(details) : RunDetailsRenderer.text(details))
        output.flush()
    }
}
