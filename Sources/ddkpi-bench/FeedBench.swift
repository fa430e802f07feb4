import ArgumentParser
import CivilCalendar
import Feeds
import KPI
import OutputText
import SheetFixtures
import Warehouse

#if canImport(Glibc)
    import Glibc
#endif

/// A synthetic chain for one feed: stores, a generated CSV of the feed, `ddkpi ingest` of it
/// in a child process (rows/s, peak RSS), then the report queries on the warehouse it built.
struct FeedBench {
    let name: String
    let feed: FeedID
    let stores: Int
    let header: String

    /// Writes stores and the feed file (`writeRows` writes the data rows of each store-day and
    /// returns how many), ingests it, and returns the warehouse for the query timings.
    func run(first: CivilDate, last: CivilDate, writeRows: (TextOutput, String, CivilDate) -> Int) throws -> (
        Warehouse, String
    ) {
        let work = "/tmp/ddkpi-bench-\(name)-\(getpid())"
        mkdir(work, 0o755)
        let started = Clock.now()
        let storeFile = try TextOutput(path: work + "/stores.csv")
        storeFile.write("code,name,region\n")
        let codes = (1...stores).map(SalesAuditData.storeCode)
        for (index, code) in codes.enumerated() { storeFile.write("\(code),Store \(index + 1),Region \(index % 4)\n") }
        storeFile.flush()
        let path = work + "/\(name)_sales.csv"
        let output = try TextOutput(path: path)
        output.write(header + "\n")
        var rows = 0
        var day = first
        while day <= last {
            for code in codes { rows += writeRows(output, code, day) }
            day = day.adding(days: 1)
        }
        output.flush()
        print(
            "generated \(rows) rows (\(Format.megabytes(FileSystem.size(path)))) in \(Format.seconds(Clock.now() - started))"
        )
        let ddkpi = Measurement.sibling("ddkpi")
        let database = work + "/warehouse.sqlite"
        _ = try Measurement.run(
            label: "stores import", [ddkpi, "--db", database, "stores", "import", work + "/stores.csv"])
        let ingest = try Measurement.run(
            label: "ddkpi ingest (\(feed.rawValue))",
            [ddkpi, "--db", database, "ingest", "--feed", feed.rawValue, path])
        ingest.print(rows: rows, bytes: FileSystem.size(path))
        return (try Warehouse(path: database), work)
    }
}

/// Times a query: the median and minimum of repeated runs, in milliseconds.
struct QueryTimer {
    let repetitions: Int

    func time(_ label: String, _ body: () throws -> Void) throws {
        try withoutActuallyEscaping(body) { body in _ = try interleaved([(label, body)]) }
    }

    /// Times several queries in turns, one run of each per repetition, so that they share the
    /// machine's moods; prints each one's line and returns the medians in milliseconds.
    @discardableResult
    func interleaved(_ queries: [(label: String, body: () throws -> Void)]) throws -> [Double] {
        var samples = Array(repeating: [Double](), count: queries.count)
        for _ in 0..<max(repetitions, 1) {
            for (index, query) in queries.enumerated() {
                let started = Clock.now()
                try query.body()
                samples[index].append((Clock.now() - started) * 1000)
            }
        }
        return zip(queries, samples).map { query, samples in
            let sorted = samples.sorted()
            print(
                "\(query.label): median \(Format.decimal(sorted[sorted.count / 2], places: 1)) ms, min \(Format.decimal(sorted[0], places: 1)) ms over \(sorted.count) runs"
            )
            return sorted[sorted.count / 2]
        }
    }
}

/// `ddkpi-bench employees`: 200 stores × 12 associates × 2 years of daily rows (SPEC section 9).
struct EmployeesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees", abstract: "Time ingest of daily associate rows and the employees report.")

    @Option(help: "Stores in the synthetic chain.")
    var stores = 200

    @Option(help: "Associates per store.")
    var associates = 12

    @Option(help: "Timed repetitions of each report (the median is reported).")
    var repetitions = 9

    func run() throws {
        var random = SplitMix(seed: 12)
        let bench = FeedBench(
            name: "employees", feed: .employeePerformance, stores: stores,
            header: "Store #,Business Date,Emp #,Salesperson,Net Sales,Trans,Items Sold,CCP %,GP %")
        let (warehouse, work) = try bench.run(
            first: CivilDate(year: 2023, month: 7, day: 1), last: CivilDate(year: 2025, month: 6, day: 30)
        ) { output, code, day in
            let date = day.iso8601
            let storeNumber = Int(code) ?? 0
            for associate in 0..<associates {
                let id = storeNumber * associates + associate
                let transactions = 1 + Int(random.next() % 6)
                let cents = transactions * 30_000 + Int(random.next() % 9_999)
                output.write(
                    "\(code),\(date),\(id),Associate \(id),\(Format.cents(cents)),\(transactions),\(transactions + Int(random.next() % 3)),0.\(40 + random.next() % 20),0.5\n"
                )
            }
            return associates
        }
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        for period in ["MTD", "YTD"] {
            try QueryTimer(repetitions: repetitions).time("employees --as-of 2025-06-15 --period \(period), all stores")
            {
                _ = try engine.employees(
                    asOf: CivilDate(year: 2025, month: 6, day: 15), period: period, filter: .all, top: 10)
            }
        }
    }
}

/// `ddkpi-bench merch`: 200 stores × 80 vendors × 6 categories × 2 years, rows on sale days only
/// (SPEC section 10).
struct MerchBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merch", abstract: "Time ingest of daily vendor × category rows and the merch report.")

    @Option(help: "Stores in the synthetic chain.")
    var stores = 200

    @Option(help: "Vendor and category pairs sold per store and day.")
    var pairsPerDay = 12

    @Option(help: "Timed repetitions of each report (the median is reported).")
    var repetitions = 9

    func run() throws {
        var random = SplitMix(seed: 80)
        let categories = ["Bridal", "Fashion", "Watches", "Repairs", "Diamonds", "Gold"]
        let bench = FeedBench(
            name: "merch", feed: .merchSales, stores: stores,
            header: "Store,Date,Vendor #,Vendor Name,Category,Net Sales,Units")
        let (warehouse, work) = try bench.run(
            first: CivilDate(year: 2023, month: 7, day: 1), last: CivilDate(year: 2025, month: 6, day: 30)
        ) { output, code, day in
            let date = day.iso8601
            // Distinct pairs per store-day: a stride through the 480 vendor × category pairs.
            let start = Int(random.next() % 480)
            for index in 0..<pairsPerDay {
                let pair = (start + index * 37) % 480
                let cents = 5_000 + Int(random.next() % 200_000)
                output.write(
                    "\(code),\(date),V\(pair / 6),Vendor \(pair / 6),\(categories[pair % 6]),\(Format.cents(cents)),\(1 + random.next() % 5)\n"
                )
            }
            return pairsPerDay
        }
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let engine = KPIEngine(warehouse: warehouse, calendar: FiscalCalendar())
        guard let quarter = engine.calendar.quarter(named: "2025Q2") else { return }
        for dimension in MerchDimension.allCases {
            try QueryTimer(repetitions: repetitions).time(
                "merch --quarter 2025Q2 --by \(dimension.rawValue), all scopes"
            ) {
                _ = try engine.merch(quarter: quarter, by: dimension, filter: .all, top: 10)
            }
        }
    }
}
