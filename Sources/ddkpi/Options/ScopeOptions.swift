import ArgumentParser
import KPI

/// `--store`/`--region`: the scopes a report covers (`kpi`, `review`, `employees`, `merch`), or
/// the one scope `explain` explains.
struct ScopeOptions: ParsableArguments {
    @Option(help: "Only these stores (repeatable where a report covers several); no company-wide scope.")
    var store: [String] = []

    @Option(
        help: "Only this region's stores (and the region itself where the report has scopes); no company-wide scope.")
    var region: String?

    func validate() throws {
        if !store.isEmpty && region != nil { throw ValidationError("give --store or --region, not both") }
    }

    /// The scopes the options select: the stores, else the region, else everything.
    var filter: ScopeFilter {
        if !store.isEmpty { return .stores(store) }
        if let region { return .region(region) }
        return .all
    }
}

/// `--top`, shared by the ranked reports (`employees`, `merch`).
struct RankingOptions: ParsableArguments {
    @Option(help: "How many entries a ranked list shows: the chain-wide associates, or the keys before (other).")
    var top = 10

    func validate() throws {
        guard top >= 1 else { throw ValidationError("--top \(top): expected a whole number of at least 1") }
    }
}
