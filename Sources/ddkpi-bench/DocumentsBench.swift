import ArgumentParser
import CivilCalendar
import Feeds

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi-bench documents`: the whole `ddkpi review --format xlsx|html` command (query and
/// document) on a synthetic chain, timed with its peak RSS as a child process; csv first as the baseline.
struct DocumentsBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "documents",
        abstract: "Time the quarterly review as XLSX and HTML on a synthetic 1,000-store chain.")

    @Option(help: "Stores in the synthetic chain.")
    var stores = 1_000

    @Option(help: "Timed runs of each format (each is reported).")
    var repetitions = 3

    func run() throws {
        let work = "/tmp/ddkpi-bench-documents-\(getpid())"
        mkdir(work, 0o755)
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let ddkpi = Measurement.sibling("ddkpi")
        let database = ["--db", work + "/warehouse.sqlite"]
        let started = Clock.now()
        // One year ending with 2025Q2 is enough for the review (LY is then zero).
        try SyntheticChain(
            stores: stores, first: CivilDate(year: 2024, month: 7, day: 1),
            last: CivilDate(year: 2025, month: 6, day: 30)
        ).load(from: work, ddkpi: ddkpi, database: database)
        print("built the \(stores)-store warehouse in \(Format.seconds(Clock.now() - started))")
        // csv: the query and the engine alone, the baseline the documents add to.
        for format in ["csv", "xlsx", "html"] {
            for run in 1...max(1, repetitions) {
                let output = "\(work)/review.\(format)"
                let measured = try Measurement.run(
                    label: "review --format \(format)",
                    [ddkpi] + database + ["review", "--quarter", "2025Q2", "--format", format, "--output", output])
                print(
                    "review --format \(format) (\(stores) stores), run \(run): \(Format.seconds(measured.seconds)), "
                        + "peak RSS \(Format.decimal(Double(measured.peakKilobytes) / 1024, places: 1)) MiB, \(Format.megabytes(FileSystem.size(output)))"
                )
            }
        }
    }
}
