import ArgumentParser
import OutputText
import PostgresClient
import SheetStream
import Warehouse

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi-bench`: generates deterministic sales-audit-like files and measures how fast, and in
/// how much memory, ddkpi reads them, side by side with other tools when asked.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ddkpi-bench",
        abstract: "Measure ddkpi's readers: throughput and peak memory on synthetic sales-audit files.",
        subcommands: [
            XLSXBench.self, CSVBench.self, IngestBench.self, KPIBench.self, EmployeesBench.self, MerchBench.self,
            DocumentsBench.self, HistoryBench.self, PublishBench.self, IngestFileCommand.self,
        ]
    )
}

/// Options shared by the file benchmarks.
struct BenchOptions: ParsableArguments {
    @Option(help: "Rows to generate.")
    var rows = 1_000_000

    @Option(help: "Where to write the generated file (default: a file in /tmp named by row count).")
    var file: String?

    @Flag(help: "Reuse the file if it already exists.")
    var reuse = false

    @Flag(
        help:
            "Also time the comparison tools (python-calamine, DuckDB, unzip + libxml2 SAX with no callbacks) on the same file."
    )
    var compare = false
}

struct XLSXBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xlsx", abstract: "Generate a 9-column sales-audit XLSX and time reading it.")

    @OptionGroup var options: BenchOptions

    @Flag(help: "Write strings inline (t=\"inlineStr\") instead of in the shared-string table.")
    var inlineStrings = false

    func run() throws {
        let path = options.file ?? "/tmp/ddkpi-bench-\(options.rows)\(inlineStrings ? "-inline" : "").xlsx"
        if !(options.reuse && FileSystem.exists(path)) {
            let started = Clock.now()
            try SalesAuditData(rows: options.rows).writeXLSX(to: path, strings: inlineStrings ? .inline : .shared)
            print("generated \(path) in \(Format.seconds(Clock.now() - started))")
        }
        let archive = try ZipArchive(path: path)
        let sheetBytes = archive.entry(named: "xl/worksheets/sheet1.xml")?.uncompressedSize ?? 0
        print(
            "file \(Format.megabytes(FileSystem.size(path))), sheet XML \(Format.megabytes(sheetBytes)), \(options.rows) rows x 9 columns"
        )
        let ours = try Measurement.run(label: "ddkpi (SheetStream)", [Measurement.reader, "read", path])
        ours.print(rows: options.rows, bytes: sheetBytes)
        guard options.compare else { return }
        let calamine = Measurement.compare(label: "python-calamine", ["python3", "-c", Scripts.calamine, path])
        calamine?.print(rows: options.rows, bytes: sheetBytes)
        let duckdb = Measurement.compare(label: "duckdb read_xlsx", ["python3", "-c", Scripts.duckdbXLSX, path])
        duckdb?.print(rows: options.rows, bytes: sheetBytes)
        let extracted = path + ".sheet1.xml"
        _ = try Measurement.run(
            label: "extract", ["sh", "-c", "unzip -p \"$0\" xl/worksheets/sheet1.xml > \"$1\"", path, extracted])
        let unzip = try Measurement.run(
            label: "unzip -p > /dev/null", ["sh", "-c", "unzip -p \"$0\" xl/worksheets/sheet1.xml > /dev/null", path])
        unzip.print(rows: options.rows, bytes: sheetBytes)
        let sax = try Measurement.run(label: "libxml2 SAX, no work", [Measurement.reader, "sax-floor", extracted])
        sax.print(rows: options.rows, bytes: sheetBytes)
        FileSystem.remove(extracted)
        let floor = unzip.seconds + sax.seconds
        var ratios = ["ddkpi/(unzip + libxml2 SAX = \(Format.seconds(floor))) \(Format.ratio(ours.seconds / floor))"]
        if let calamine { ratios.append("ddkpi/python-calamine \(Format.ratio(ours.seconds / calamine.seconds))") }
        if let duckdb { ratios.append("ddkpi/duckdb \(Format.ratio(ours.seconds / duckdb.seconds))") }
        print("ratios: " + ratios.joined(separator: ", "))
    }
}

struct CSVBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv", abstract: "Generate a 9-column sales-audit CSV and time reading it.")

    @OptionGroup var options: BenchOptions

    func run() throws {
        let path = options.file ?? "/tmp/ddkpi-bench-\(options.rows).csv"
        if !(options.reuse && FileSystem.exists(path)) {
            let started = Clock.now()
            try SalesAuditData(rows: options.rows).writeCSV(to: path)
            print("generated \(path) in \(Format.seconds(Clock.now() - started))")
        }
        let bytes = FileSystem.size(path)
        print("file \(Format.megabytes(bytes)), \(options.rows) rows x 9 columns")
        let ours = try Measurement.run(label: "ddkpi (CSVReader)", [Measurement.reader, "read", path])
        ours.print(rows: options.rows, bytes: bytes)
        guard options.compare else { return }
        // Interleaved: our whole process, then DuckDB's median query time in one connection.
        var oursSeconds = [ours.seconds]
        var duckdbSeconds: [Double] = []
        for round in 0..<3 {
            if round > 0 {
                oursSeconds.append(
                    try Measurement.run(label: "ddkpi (CSVReader)", [Measurement.reader, "read", path]).seconds)
            }
            guard
                let duckdb = Measurement.compare(label: "duckdb read_csv", ["python3", "-c", Scripts.duckdbCSV, path]),
                let range = duckdb.output.range(of: "median="),
                let median = Double(duckdb.output[range.upperBound...].prefix { $0 != " " })
            else { return }
            duckdbSeconds.append(median)
            print(
                "round \(round + 1): ddkpi \(Format.seconds(oursSeconds[round])), duckdb read_csv in-connection median \(Format.seconds(median))  [\(duckdb.output)]"
            )
        }
        let middle = { (values: [Double]) in values.sorted()[values.count / 2] }
        print("ratio (medians): ddkpi/duckdb \(Format.ratio(middle(oursSeconds) / middle(duckdbSeconds)))")
    }
}

struct IngestBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Time `ddkpi ingest` of a sales-audit XLSX of store-day rows into a fresh warehouse.")

    @OptionGroup var options: BenchOptions

    @Option(
        help:
            "Ingest into a PostgreSQL database at this postgresql:// URL (into a new schema, dropped afterwards) instead of a new SQLite file."
    )
    var postgres: String?

    @Option(
        help:
            "Then time this many interleaved pairs of `ingest-file` children, the gate on and off, each into a fresh warehouse, and print the medians."
    )
    var gatePairs = 0

    func run() throws {
        let path = options.file ?? "/tmp/ddkpi-bench-\(options.rows).xlsx"
        if !(options.reuse && FileSystem.exists(path)) {
            let started = Clock.now()
            try SalesAuditData(rows: options.rows).writeXLSX(to: path, strings: .shared)
            print("generated \(path) in \(Format.seconds(Clock.now() - started))")
        }
        let work = "/tmp/ddkpi-bench-ingest-\(getpid())"
        mkdir(work, 0o755)
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let stores = work + "/stores.csv"
        let output = try TextOutput(path: stores)
        output.write("code,name,region\n")
        for number in 1...40 {
            output.write("\(SalesAuditData.storeCode(number)),Store \(number),Region \(number % 4)\n")
        }
        output.flush()
        let ddkpi = Measurement.sibling("ddkpi")
        let scratch = try postgres.map { try ScratchSchema(server: $0) }
        defer { scratch?.drop() }
        let database = scratch?.url ?? work + "/warehouse.sqlite"
        _ = try Measurement.run(label: "stores import", [ddkpi, "--db", database, "stores", "import", stores])
        print(
            "file \(Format.megabytes(FileSystem.size(path))), \(options.rows) store-day rows, into \(scratch == nil ? "SQLite" : "PostgreSQL")"
        )
        // A fixed one-core workload, so that runs on a machine whose speed varies can be compared.
        let referenceStart = Clock.now()
        for _ in 0..<8 { _ = try SHA256.ofFile(path) }
        print("reference: SHA-256 of the file 8 times on one core took \(Format.seconds(Clock.now() - referenceStart))")
        let ours = try Measurement.run(
            label: "ddkpi ingest", [ddkpi, "--db", database, "ingest", "--feed", "sales-audit", path])
        ours.print(rows: options.rows, bytes: FileSystem.size(path))
        if gatePairs > 0 { try compareGate(path, stores: stores, work: work) }
        guard options.compare else { return }
        let pandas = Measurement.compare(
            label: "pandas+sqlite3 upsert", ["python3", "-c", Scripts.pandasUpsert, path, work + "/pandas.sqlite"])
        pandas?.print(rows: options.rows, bytes: FileSystem.size(path))
        if let pandas { print("speed-up over pandas: \(Format.ratio(pandas.seconds / ours.seconds))") }
    }
}

extension IngestBench {
    /// `--gate-pairs`: the same file ingested by `ddkpi-bench ingest-file` with the checks and
    /// without them (`--no-checks`), alternately, each into a fresh warehouse; the medians and
    /// the gate's share of the ingest without it (SPEC section 18: at most 10 %).
    func compareGate(_ path: String, stores: String, work: String) throws {
        let ddkpi = Measurement.sibling("ddkpi")
        let bench = Measurement.sibling("ddkpi-bench")
        var runs: [Bool: [Measurement]] = [true: [], false: []]
        for pair in 0..<gatePairs {
            // Alternate which goes first, so that neither always runs on a warmer machine.
            for gate in pair % 2 == 0 ? [true, false] : [false, true] {
                let scratch = try postgres.map { try ScratchSchema(server: $0, suffix: "_\(pair)_\(gate)") }
                defer { scratch?.drop() }
                let database = scratch?.url ?? work + "/gate-\(pair)-\(gate).sqlite"
                _ = try Measurement.run(label: "stores import", [ddkpi, "--db", database, "stores", "import", stores])
                let label = gate ? "gate on" : "gate off"
                let measured = try Measurement.run(
                    label: label, [bench, "ingest-file", "--db", database, path] + (gate ? [] : ["--no-checks"]))
                Swift.print("pair \(pair + 1) ", terminator: "")
                measured.print(rows: options.rows, bytes: FileSystem.size(path))
                runs[gate, default: []].append(measured)
                if scratch == nil { FileSystem.remove(database) }
            }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        let on = runs[true] ?? []
        let off = runs[false] ?? []
        guard !on.isEmpty, !off.isEmpty else { return }
        let onSeconds = median(on.map(\.seconds))
        let offSeconds = median(off.map(\.seconds))
        let peak = { (runs: [Measurement]) in
            Format.decimal(Double(runs.map(\.peakKilobytes).max() ?? 0) / 1024, places: 1) + " MiB"
        }
        Swift.print(
            "gate on median \(Format.seconds(onSeconds)) (peak RSS up to \(peak(on))), off median \(Format.seconds(offSeconds)) (\(peak(off))) over \(gatePairs) pairs: the gate adds \(Format.decimal((onSeconds / offSeconds - 1) * 100, places: 1)) %"
        )
        // CPU time does not wait for the machine's other work: the gate's own cost.
        let onCPU = median(on.map(\.cpuSeconds))
        let offCPU = median(off.map(\.cpuSeconds))
        Swift.print(
            "CPU (user + system, every thread) on median \(Format.seconds(onCPU)), off median \(Format.seconds(offCPU)): the gate adds \(Format.decimal((onCPU / offCPU - 1) * 100, places: 1)) %"
        )
    }
}

/// A schema of its own on a PostgreSQL server for one benchmark's warehouse, dropped afterwards.
struct ScratchSchema {
    private let server: String
    private let name: String

    init(server: String, suffix: String = "") throws {
        self.server = server
        name = "ddkpi_bench_\(getpid())\(suffix)"
        try PostgresConnection(url: server).execute("CREATE SCHEMA \(name)")
    }

    /// The URL of the warehouse in the schema.
    var url: String { PostgresURL.url(server, searchPath: name) }

    func drop() { _ = try? PostgresConnection(url: server).execute("DROP SCHEMA \(name) CASCADE") }
}
