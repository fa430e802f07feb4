import ArgumentParser
import Feeds
import Warehouse

/// `ddkpi stores import FILE`: upserts the store directory (code, name, region, status, aliases).
struct StoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores", abstract: "Manage the store directory.", subcommands: [Import.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Upsert stores from a CSV/XLSX file: code, name, region, status, aliases (separated by ;).")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The stores file.") var file: String
        @Flag(help: "Import even if this exact file was imported before.") var force = false

        func run() throws { try importReference(.stores, file: file, global: global, force: force) }
    }
}

/// `ddkpi goals import FILE`: upserts monthly and daily targets (period, scope, metric, target, date).
struct GoalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals", abstract: "Manage goals and targets.", subcommands: [Import.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Upsert goals from a CSV/XLSX file: period (YYYY-MM), scope (global or a store code), metric, target, date.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The goals file.") var file: String
        @Flag(help: "Import even if this exact file was imported before.") var force = false

        func run() throws { try importReference(.goals, file: file, global: global, force: force) }
    }
}

/// Imports a reference file through the same transactional, ledgered path as feeds.
private func importReference(_ feed: FeedID, file: String, global: GlobalOptions, force: Bool) throws {
    let configuration = try global.configuration()
    let warehouse = try global.openWarehouse(configuration)
    let ingestor = try FeedIngestor(
        warehouse: warehouse, configuration: configuration, explicitFeed: feed,
        options: IngestOptions(force: force, rejectThreshold: 0))
    var printer = IngestPrinter()
    printer.print(ingestor.ingest(file))
    if printer.anyFailed { throw ExitCode(ExitStatus.inputFailed) }
}
