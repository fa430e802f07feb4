import ArgumentParser
import Feeds
import Ingest
import OutputText
import Reports
import Warehouse

/// `ddkpi stores import FILE`: upserts the store directory (code, name, region, status, aliases).
struct StoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stores", abstract: "Manage the store directory.", subcommands: [Import.self, List.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Upsert stores from a CSV/XLSX file: code, name, region, status, aliases (separated by ;), opened, closed."
        )

        @OptionGroup var options: ReferenceImportOptions

        func run() throws { try options.importFile(as: .stores) }
    }

    /// `ddkpi stores list`: the directory with opening and closing days (SPEC section 21).
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract:
                "List the store directory: code, name, region, status, opened, closed, and the day comparable-store sales count it from."
        )

        @OptionGroup var global: GlobalOptions
        @Option(help: "Output format: table, csv or json.") var format = FormatOption<StoreListing>.standard

        func run() throws {
            let configuration = try global.configuration()
            let warehouse = try global.openWarehouse(configuration)
            let output = TextOutput()
            let stores = try warehouse.stores()
            let unopened = Set(stores.filter { $0.opened == nil }.map(\.code))
            output.write(
                try StoreListRenderer.render(
                    stores, firstSales: try warehouse.firstSalesDates(of: unopened), format: format.value))
            output.flush()
        }
    }
}

/// `ddkpi goals import FILE`: upserts monthly and daily targets (period, scope, metric, target, date).
struct GoalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "goals", abstract: "Manage goals and targets.", subcommands: [Import.self])

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract:
                "Upsert goals from a CSV/XLSX file: period (YYYY-MM, or FY2025-M04 under a retail calendar), scope (global or a store code), metric, target, date."
        )

        @OptionGroup var options: ReferenceImportOptions

        func run() throws { try options.importFile(as: .goals) }
    }
}

/// What both reference imports take.
struct ReferenceImportOptions: ParsableArguments {
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The CSV or XLSX file.") var file: String
    @Flag(help: "Import even if this exact file was imported before.") var force = false

    /// Imports the file through the same transactional, ledgered path as feeds; reference rows
    /// must all be valid (reject threshold 0).
    func importFile(as feed: FeedID) throws {
        let configuration = try global.configuration()
        let ingestor = FileIngestor(
            warehouse: try global.openWarehouseForWriting(configuration), configuration: configuration,
            explicitFeed: feed,
            options: IngestOptions(force: force, rejectThreshold: 0))
        var printer = IngestPrinter()
        printer.print(ingestor.ingestShowingProgress(file))
        if printer.anyFailed { throw ExitCode(ExitStatus.inputFailed) }
    }
}
