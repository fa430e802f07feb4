import ArgumentParser
import CivilCalendar
import OutputText
import Warehouse

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
