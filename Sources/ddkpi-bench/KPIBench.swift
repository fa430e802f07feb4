import ArgumentParser
import Checks
import CivilCalendar
import Feeds
import Ingest
import KPI
import OutputText
import SheetFixtures
import Warehouse

#if canImport(Glibc)
    import Glibc
#endif

/// `ddkpi-bench kpi`: query time of `kpi --as-of` (all scopes), of the full quarterly review and
/// of the wrong-data checks (every store-day, and `check`'s default 35 days) on a synthetic
/// warehouse of 40 stores × 5 years of daily rows for every feed.
struct KPIBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kpi", abstract: "Time kpi and review queries on a synthetic 40-store, 5-year warehouse.")

    @Option(help: "Stores in the synthetic chain.")
    var stores = 40

    @Option(help: "Years of daily data, ending 2025-06-30.")
    var years = 5

    @Option(help: "Timed repetitions of each query (the median is reported).")
    var repetitions = 9

    @Option(help: "Keep the synthetic warehouse in this folder, and reuse it when it is already there.")
    var keep: String?

    @Option(
        help:
            "Build the warehouse in a new schema of the PostgreSQL database at this postgresql:// URL (dropped afterwards) instead of a SQLite file."
    )
    var postgres: String?

    func run() throws {
        let work = keep ?? "/tmp/ddkpi-bench-kpi-\(getpid())"
        let scratch = try postgres.map { try ScratchSchema(server: $0) }
        defer { scratch?.drop() }
        let database = scratch?.url ?? work + "/warehouse.sqlite"
        let reuse = scratch == nil && keep != nil && FileSystem.exists(database)
        mkdir(work, 0o755)
        defer { if keep == nil { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) } }
        let started = Clock.now()
        let warehouse = try Warehouse(path: database)
        let last = CivilDate(year: 2025, month: 6, day: 30)
        let first = CivilDate(year: 2025 - years, month: 7, day: 1)
        let files = reuse ? [] : try SyntheticChain(stores: stores, first: first, last: last).write(to: work)
        for (path, feed) in files {
            let outcome = FileIngestor(
                warehouse: warehouse, explicitFeed: feed, options: IngestOptions(rejectThreshold: 0)
            ).ingest(path)
            guard outcome.status == .ok else { throw BenchError("\(path): \(outcome.error ?? "failed")") }
            print("ingested \(FeedFileReader.fileName(path)): \(outcome.counts.inserted) keys")
        }
        print("built the warehouse in \(Format.seconds(Clock.now() - started))")
        if !reuse { try loadFiscalGoals(into: warehouse, folder: work, first: first, last: last) }
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        let retail = KPIEngine(
            warehouse: warehouse, calendar: FiscalCalendar(kind: .retail(RetailCalendar())), comparableStores: true)
        guard let quarter = engine.calendar.quarter(named: "2025Q2"),
            let fiscalQuarter = retail.calendar.quarter(named: "2025Q2")
        else { return }
        let asOf = CivilDate(year: 2025, month: 6, day: 15)
        let timer = QueryTimer(repetitions: repetitions)
        // Gregorian and NRF 4-5-4 with comp in turns (SPEC section 21: within 1.2×).
        let kpi = try timer.interleaved([
            ("kpi --as-of 2025-06-15, all scopes", { _ = try engine.kpi(asOf: asOf, filter: .all) }),
            ("kpi --as-of 2025-06-15 nrf-454 with comp, all scopes", { _ = try retail.kpi(asOf: asOf, filter: .all) }),
        ])
        let review = try timer.interleaved([
            ("review --quarter 2025Q2, all scopes", { _ = try engine.review(quarter: quarter, filter: .all) }),
            (
                "review --quarter 2025Q2 nrf-454 with comp, all scopes",
                { _ = try retail.review(quarter: fiscalQuarter, filter: .all) }
            ),
        ])
        print(
            "nrf-454 with comp against gregorian: kpi \(Format.decimal(kpi[1] / kpi[0], places: 2))×, review \(Format.decimal(review[1] / review[0], places: 2))×"
        )
        var alarms = 0
        try timer.time("check --since \(first.iso8601), every store-day") {
            alarms = try warehouse.alarms(from: first, through: last, settings: CheckSettings()).count
        }
        try timer.time("check --as-of \(last.iso8601), the last 35 days") {
            _ = try warehouse.alarms(from: last.adding(days: -34), through: last, settings: CheckSettings())
        }
        print("check found \(alarms) alarms in \(stores * (last.daysSinceEpoch - first.daysSinceEpoch + 1)) store-days")
        try auditExplanations(engine, warehouse: warehouse, first: first, last: last)
    }
}

extension KPIBench {
    /// Global goals for every NRF fiscal month the chain covers (`FY2020-M06`…), with the same
    /// monthly amounts as its calendar-month goals, so the 4-5-4 timings merge as many targets.
    fileprivate func loadFiscalGoals(into warehouse: Warehouse, folder: String, first: CivilDate, last: CivilDate)
        throws
    {
        let calendar = RetailCalendar()
        let path = folder + "/goals_fiscal.csv"
        let output = try TextOutput(path: path)
        output.write("period,scope,metric,target\n")
        for part in calendar.monthParts(of: DateRange(start: first, end: last)) {
            for (metric, target) in SyntheticChain.globalTargets {
                output.write("\(part.month.label),global,\(metric),\(target)\n")
            }
        }
        output.flush()
        var options = FeedOptions()
        options.goalMonths = .fiscal(calendar)
        let outcome = FileIngestor(
            warehouse: warehouse, feedOptions: options, explicitFeed: .goals, options: IngestOptions(rejectThreshold: 0)
        ).ingest(path)
        guard outcome.status == .ok else { throw BenchError("\(path): \(outcome.error ?? "failed")") }
    }

    /// `explain` on 200 random queries, alternating rollups on and bypassed, each audited: the
    /// rows sum to the components, the components give the value, the parts the target.
    fileprivate func auditExplanations(_ engine: KPIEngine, warehouse: Warehouse, first: CivilDate, last: CivilDate)
        throws
    {
        let directory = try warehouse.stores()
        let quarters = (2021...2025).flatMap { year in (1...4).map { "\(year)Q\($0)" } }.compactMap(
            engine.calendar.quarter(named:)
        ).filter { $0.range.start >= first && $0.range.end <= last }
        var random = SplitMix(seed: 200)
        let started = Clock.now()
        var problems: [String] = []
        for query in 0..<200 {
            warehouse.usesRollups = query % 2 == 0
            let request = ExplainRequest.random(
                stores: directory.map(\.code), regions: Set(directory.compactMap(\.region)).sorted(),
                days: DateRange(start: first.adding(days: 366), end: last), quarters: quarters, using: &random)
            problems += try engine.audit(try engine.explain(request)).map { "query \(query): \($0)" }
        }
        warehouse.usesRollups = true
        print(
            "explain: 200 random queries audited in \(Format.seconds(Clock.now() - started)), \(problems.isEmpty ? "all add up" : "\(problems.count) problems")"
        )
        for problem in problems.prefix(5) { print("  \(problem)") }
    }
}

/// Writes the synthetic chain's reference files and feeds as CSV.
struct SyntheticChain {
    let stores: Int
    let first: CivilDate
    let last: CivilDate
    /// Also associates (three per store, daily), categories (daily) and vendors (monthly), for
    /// the ranked reports.
    var rankings = false

    /// Writes the chain to `folder` and loads it with `ddkpi` into `database` (`--db PATH`):
    /// the stores, the goals, then each feed.
    func load(from folder: String, ddkpi: String, database: [String]) throws {
        for (path, feed) in try write(to: folder) {
            let command: [String]
            switch feed {
            case .stores: command = ["stores", "import", path]
            case .goals: command = ["goals", "import", path]
            default: command = ["ingest", "--feed", feed.rawValue, path]
            }
            _ = try Measurement.run(label: command.prefix(2).joined(separator: " "), [ddkpi] + database + command)
        }
    }

    /// The chain's monthly `global` target of each metric.
    static let globalTargets: [(metric: String, target: Double)] = [
        ("totalSales", 250_000.0), ("avgAds", 330), ("upt", 1.55), ("ccpPct", 0.42), ("gpPct", 0.52),
        ("creditApps", 36), ("birdeyeReviews", 20), ("guestCapture", 52), ("outboundCalls", 165),
    ]

    func write(to folder: String) throws -> [(String, FeedID)] {
        var random = SplitMix(seed: 40)
        let codes = (1...stores).map(SalesAuditData.storeCode)
        let outputs: [(String, FeedID, String)] =
            [
                ("stores.csv", .stores, "code,name,region\n"), ("goals.csv", .goals, "period,scope,metric,target\n"),
                ("sales_audit.csv", .salesAudit, "Store,Date,Net Sales,Transactions,Items,CCP %,GP %\n"),
                ("credit.csv", .creditApps, "Store,Date\n"), ("crm_intakes.csv", .crmIntakes, "Store,Date\n"),
                ("birdeye.csv", .birdeyeReviews, "Store,Review Date\n"),
                ("calls.csv", .outboundCalls, "Store,Week Of,Mon,Tue,Wed,Thu,Fri,Sat,Sun\n"),
            ]
            + (rankings
                ? [
                    (
                        "employee_sales.csv", .employeePerformance,
                        "Store #,Business Date,Emp #,Salesperson,Net Sales,Trans,Items Sold,CCP %,GP %\n"
                    ),
                    ("category_sales.csv", .merchSales, "Location,Sales Date,Department,Net Sales,Qty\n"),
                    ("vendor_sales.csv", .merchSales, "Store,Period,Vendor #,Vendor Name,Net Sales,Units Sold\n"),
                ] : [])
        var files: [String: TextOutput] = [:]
        for (name, _, header) in outputs {
            let output = try TextOutput(path: folder + "/" + name)
            output.write(header)
            files[name] = output
        }
        func write(_ name: String, _ line: String) { files[name]?.write(line + "\n") }
        for (index, code) in codes.enumerated() {
            write("stores.csv", "\(code),Store \(index + 1),Region \(index % 4)")
        }
        var month = CivilDate(year: first.year, month: first.month, day: 1)
        while month <= last {
            let period = month.iso8601Month
            for (metric, target) in Self.globalTargets {
                write("goals.csv", "\(period),global,\(metric),\(target)")
            }
            if rankings {
                for code in codes {
                    for (number, vendor) in ["Pandora", "Seiko", "Tacori", "Yurman"].enumerated() {
                        write(
                            "vendor_sales.csv",
                            "\(code),\(period),V10\(number),\(vendor),\(2_000 + random.next() % 3_000),\(5 + random.next() % 20)"
                        )
                    }
                }
            }
            month = month.adding(days: CivilDate.daysIn(month: month.month, year: month.year))
        }
        var day = first
        while day <= last {
            for code in codes {
                let transactions = 10 + Int(random.next() % 30)
                let items = transactions + Int(random.next() % UInt64(transactions))
                write(
                    "sales_audit.csv",
                    "\(code),\(day.iso8601),\(transactions * 330),\(transactions),\(items),0.\(40 + random.next() % 20),0.5"
                )
                if rankings {
                    for clerk in 1...3 {
                        let trans = transactions / 3
                        write(
                            "employee_sales.csv",
                            "\(code),\(day.iso8601),E\(code)\(clerk),Clerk \(code)-\(clerk),\(trans * 330),\(trans),\(trans * 3 / 2),0.42,0.52"
                        )
                    }
                    for department in ["Bridal", "Fashion", "Watches"] {
                        write(
                            "category_sales.csv",
                            "\(code),\(day.iso8601),\(department),\(transactions * 110),\(transactions / 2)")
                    }
                }
                for _ in 0..<(random.next() % 3) { write("credit.csv", "\(code),\(day.iso8601)") }
                for _ in 0..<(random.next() % 4) { write("crm_intakes.csv", "\(code),\(day.iso8601)") }
                if random.next() % 2 == 0 { write("birdeye.csv", "\(code),\(day.iso8601)") }
                if day.weekdayIndex == 0 {
                    write(
                        "calls.csv",
                        "\(code),\(day.iso8601),"
                            + (0..<7).map { _ in String(random.next() % 9) }.joined(separator: ","))
                }
            }
            day = day.adding(days: 1)
        }
        for file in files.values { file.flush() }
        return outputs.map { (folder + "/" + $0.0, $0.1) }
    }
}
