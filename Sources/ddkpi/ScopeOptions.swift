import ArgumentParser
import KPI

/// `--store`/`--region` and `--top`, shared by the ranked reports (`employees`, `merch`).
struct RankingOptions: ParsableArguments {
    @Option(help: "Only these stores (repeatable); no company-wide list.")
    var store: [String] = []

    @Option(help: "Only this region's stores (and, in merch, the region); no company-wide list.")
    var region: String?

    @Option(help: "How many entries a ranked list shows: the chain-wide associates, or the keys before (other).")
    var top = 10

    func validate() throws {
        if !store.isEmpty && region != nil { throw ValidationError("give --store or --region, not both") }
        guard top >= 1 else { throw ValidationError("--top \(top): expected a whole number of at least 1") }
    }

    /// The scopes the filter selects.
    var filter: ScopeFilter { scopeFilter(store: store, region: region) }
}
