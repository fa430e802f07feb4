import ArgumentParser
import CivilCalendar
import OutputText
import Reports
import Warehouse

/// `ddkpi runs show RUN`: one run and what it changed (SPEC section 16).
struct RunsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: its ledger row, counts per store, and the keys it changed (old → new).")

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The run's id (see `ddkpi runs`).")
    var id: Int64

    @Option(help: "Output format: table or json.")
    var format: Format = .table

    @Option(help: "How many changed keys to list.")
    var limit = 20

    func run() throws {
        let configuration = try global.configuration()
        guard let details = try global.openWarehouse(configuration).runDetails(id: id, limit: limit) else {
            Diagnostics.error("there is no run \(id) in the ledger (see `ddkpi runs`)")
            throw ExitCode(ExitStatus.usage)
        }
        let output = TextOutput()
        output.write(format == .json ? try RunDetailsRenderer.json(details) : RunDetailsRenderer.text(details))
        output.flush()
    }
}

/// `ddkpi history prune --before DATE`: drops the history of older runs (SPEC section 16).
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history", abstract: "Manage the history that makes runs undoable.", subcommands: [Prune.self])

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop the history of runs that finished before a day; those runs can no longer be undone.")

        @OptionGroup var global: GlobalOptions

        @Option(help: "Runs that finished before this day (YYYY-MM-DD) lose their history.")
        var before: String

        func validate() throws {
            guard CivilDate(iso8601: before) != nil else {
                throw ValidationError("--before takes a day as YYYY-MM-DD, not \"\(before)\"")
            }
        }

        func run() throws {
            let configuration = try global.configuration()
            guard let day = CivilDate(iso8601: before) else { return }
            let warehouse = try global.openWarehouseForWriting(configuration)
            let lock = try warehouse.ingestLockOrExit(waiting: global.lockTimeout)
            defer { lock.release() }
            let dropped = try warehouse.pruneHistory(before: day)
            let output = TextOutput()
            output.write(
                "pruned the history of runs finished before \(before): \(dropped) earlier row\(dropped == 1 ? "" : "s") dropped\n"
            )
            output.flush()
        }
    }
}
