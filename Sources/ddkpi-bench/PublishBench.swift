import ArgumentParser
import CivilCalendar
import Feeds
import OutputText

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi-bench publish`: the whole `ddkpi publish` command on a synthetic chain (a pack per
/// store and per region, every report, the formats asked for), timed with its peak RSS.
struct PublishBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Time ddkpi publish: a pack per store and per region of a synthetic chain, every report.")

    @Option(help: "Stores in the synthetic chain (in four regions).")
    var stores = 40

    @Option(help: "The packs' formats, comma-separated: pdf, xlsx, html.")
    var formats = "pdf,xlsx,html"

    func run() throws {
        let work = "/tmp/ddkpi-bench-publish-\(getpid())"
        mkdir(work, 0o755)
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let ddkpi = Measurement.sibling("ddkpi")
        let database = ["--db", work + "/warehouse.sqlite"]
        try SyntheticChain(
            stores: stores, first: CivilDate(year: 2024, month: 7, day: 1),
            last: CivilDate(year: 2025, month: 6, day: 30), rankings: true
        ).load(from: work, ddkpi: ddkpi, database: database)
        let quoted = formats.split(separator: ",").map { "\"\($0)\"" }.joined(separator: ", ")
        let reports = "reports = [\"review\", \"kpi\", \"employees\", \"merch-vendor\", \"merch-category\"]"
        var plan = ""
        for number in 1...stores {
            let code = SalesAuditData.storeCode(number)
            plan += "[[pack]]\nname = \"\(code)\"\nstores = [\"\(code)\"]\n\(reports)\nformats = [\(quoted)]\n\n"
        }
        for region in 0..<min(4, stores) {
            plan +=
                "[[pack]]\nname = \"region-\(region)\"\nregion = \"Region \(region)\"\n\(reports)\nformats = [\(quoted)]\n\n"
        }
        let planPath = work + "/plan.toml"
        let output = try TextOutput(path: planPath)
        output.write(plan)
        output.flush()
        let packs = stores + min(4, stores)
        let measured = try Measurement.run(
            label: "publish",
            [ddkpi] + database + ["publish", "--plan", planPath, "--out", work + "/packs", "--quarter", "2025Q2"])
        print(
            "publish \(packs) packs × 5 reports (\(formats)), \(stores) stores: \(Format.seconds(measured.seconds)), "
                + "peak RSS \(Format.decimal(Double(measured.peakKilobytes) / 1024, places: 1)) MiB")
    }
}
