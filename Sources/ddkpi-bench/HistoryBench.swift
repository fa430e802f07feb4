import ArgumentParser
import OutputText
import Warehouse

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi-bench history`: what history and undo cost (SPEC section 16): the 1M-row XLSX
/// ingested, the same rows re-sent unchanged and that undone, a corrected re-send that changes
/// 10 % of its keys (time, history bytes per row), the re-send undone, then the 1M-row run
/// undone (time and peak RSS of each).
struct HistoryBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Time a corrected re-send (10 % of keys changed) and the undo of it and of a 1M-row run.")

    @OptionGroup var options: BenchOptions

    @Option(help: "Every how many rows the re-send changes one (10 changes 10 % of the keys).")
    var changeEvery = 10

    func run() throws {
        let path = options.file ?? "/tmp/ddkpi-bench-\(options.rows).xlsx"
        if !(options.reuse && FileSystem.exists(path)) {
            try SalesAuditData(rows: options.rows).writeXLSX(to: path, strings: .shared)
        }
        let work = "/tmp/ddkpi-bench-history-\(getpid())"
        mkdir(work, 0o755)
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let stores = try TextOutput(path: work + "/stores.csv")
        stores.write("code,name,region\n")
        for number in 1...40 {
            stores.write("\(SalesAuditData.storeCode(number)),Store \(number),Region \(number % 4)\n")
        }
        stores.flush()
        let ddkpi = Measurement.sibling("ddkpi")
        let database = work + "/warehouse.sqlite"
        _ = try Measurement.run(
            label: "stores import", [ddkpi, "--db", database, "stores", "import", work + "/stores.csv"])
        let ingest = try Measurement.run(
            label: "ddkpi ingest", [ddkpi, "--db", database, "ingest", "--feed", "sales-audit", path])
        ingest.print(rows: options.rows, bytes: FileSystem.size(path))
        let firstRun = try lastRun(database)

        // The same rows re-sent unchanged (a month-to-date file's earlier days): the run holds
        // every key, so history keeps each key's previous holder.
        let unchanged = work + "/sales_audit_unchanged.csv"
        try SalesAuditData(rows: options.rows).writeCSV(to: unchanged)
        let resentUnchanged = try Measurement.run(
            label: "re-send (unchanged)", [ddkpi, "--db", database, "ingest", "--feed", "sales-audit", unchanged])
        resentUnchanged.print(rows: options.rows, bytes: FileSystem.size(unchanged))
        let undoUnchanged = try Measurement.run(
            label: "undo of the unchanged re-send",
            [ddkpi, "--db", database, "ingest", "--undo", "\(try lastRun(database))"])
        undoUnchanged.print(rows: options.rows, bytes: 0)

        let resend = work + "/sales_audit_resend.csv"
        try SalesAuditData(rows: options.rows).writeCSV(to: resend, correctingEvery: changeEvery)
        let changed = (options.rows + changeEvery - 1) / changeEvery
        let corrected = try Measurement.run(
            label: "re-send (\(100 / changeEvery) % changed)",
            [ddkpi, "--db", database, "ingest", "--feed", "sales-audit", resend])
        corrected.print(rows: options.rows, bytes: FileSystem.size(resend))
        let warehouse = try Warehouse(path: database, mode: .readOnly)
        let history = try warehouse.integer("SELECT count(*) FROM store_report_history") ?? 0
        // SQLite's page statistics: the history table and its two indexes.
        let bytes = try warehouse.integer("SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'store_report_history%'") ?? 0
        print(
            "history: \(history) rows for \(changed) changed keys and \(options.rows - changed) re-sent unchanged, \(Format.megabytes(UInt64(bytes))) with its indexes, \(Format.decimal(Double(bytes) / Double(max(history, 1)), places: 0)) bytes per row"
        )

        let undoResend = try Measurement.run(
            label: "undo of the re-send", [ddkpi, "--db", database, "ingest", "--undo", "\(try lastRun(database))"])
        undoResend.print(rows: Int(history), bytes: 0)
        let undoFirst = try Measurement.run(
            label: "undo of the 1M-row run", [ddkpi, "--db", database, "ingest", "--undo", "\(firstRun)"])
        undoFirst.print(rows: options.rows, bytes: 0)
    }

    /// The newest run's id.
    private func lastRun(_ database: String) throws -> Int64 {
        guard let id = try Warehouse(path: database, mode: .readOnly).integer("SELECT max(id) FROM ingest_run") else {
            throw BenchError("\(database): no run in the ledger")
        }
        return id
    }
}
