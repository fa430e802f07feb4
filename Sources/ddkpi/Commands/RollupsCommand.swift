import ArgumentParser
import Warehouse

/// `ddkpi rollups rebuild|check`: the store-month rollups reports read whole months from.
struct RollupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollups",
        abstract: "Rebuild or check the store-month rollups that kpi and review read whole months from.",
        subcommands: [Rebuild.self, Check.self])

    struct Rebuild: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute every store-month rollup from the feed tables (a write command).")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let configuration = try global.configuration()
            let written = try global.openWarehouseForWriting(configuration).rebuildRollups()
            print("rebuilt \(written) store-month rollups")
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compare every rollup with a full recomputation; exit 1 on any difference.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let configuration = try global.configuration()
            let differences = try global.openWarehouse(configuration).checkRollups()
            guard differences.isEmpty else {
                for difference in differences.prefix(20) { print(difference.description) }
                if differences.count > 20 { print("… and \(differences.count - 20) more") }
                print(
                    "\(differences.count) store-month rollups differ from a recomputation; run `ddkpi rollups rebuild`")
                throw ExitCode(ExitStatus.inputFailed)
            }
            print("ok: every store-month rollup equals a full recomputation")
        }
    }
}
