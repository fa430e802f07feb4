import ArgumentParser
import Feeds
import KPI
import SheetStream
import Warehouse

#if canImport(Glibc)
import Glibc
#endif

/// `ddkpi-bench employees`: `ddkpi ingest` of a daily salesperson CSV (stores × associates ×
/// days) into a fresh warehouse, in a child process (rows/s, peak RSS), then the query time of
/// `employees --as-of` for all stores.
struct EmployeesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "employees", abstract: "Time ingest of daily associate rows and the employees report.")

    @Option(help: "Stores in the synthetic chain.")
    var stores = 200

    @Option(help: "Associates per store.")
    var associates = 12

    @Option(help: "Years of daily rows, ending 2025-06-30.")
    var years = 2

    @Option(help: "Timed repetitions of the report (the median is reported).")
    var repetitions = 9

    func run() throws {
        let work = "/tmp/ddkpi-bench-employees-\(getpid())"
        mkdir(work, 0o755)
        defer { _ = try? Measurement.run(label: "cleanup", ["rm", "-rf", work]) }
        let last = CivilDate(year: 2025, month: 6, day: 30)
        let first = CivilDate(year: 2025 - years, month: 7, day: 1)
        let started = Clock.now()
        let rows = try writeFiles(to: work, first: first, last: last)
        let path = work + "/employee_sales.csv"
        print("generated \(rows) associate-day rows (\(Format.megabytes(FileSystem.size(path)))) in \(Format.seconds(Clock.now() - started))")

        let ddkpi = Measurement.sibling("ddkpi")
        let database = work + "/warehouse.sqlite"
        _ = try Measurement.run(label: "stores import", [ddkpi, "--db", database, "stores", "import", work + "/stores.csv"])
        let ingest = try Measurement.run(
            label: "ddkpi ingest (employee-performance)", [ddkpi, "--db", database, "ingest", "--feed", "employee-performance", path])
        ingest.print(rows: rows, bytes: FileSystem.size(path))

        let engine = KPIEngine(warehouse: try Warehouse(path: database), calendar: FiscalCalendar())
        let asOf = CivilDate(year: 2025, month: 6, day: 15)
        for period in ["MTD", "YTD"] {
            try QueryTimer(repetitions: repetitions).time("employees --as-of 2025-06-15 --period \(period), all stores") {
                _ = try engine.employees(asOf: asOf, period: period, filter: .all, top: 10)
            }
        }
    }

    /// Writes `stores.csv` and `employee_sales.csv`; returns the data rows written.
    private func writeFiles(to folder: String, first: CivilDate, last: CivilDate) throws -> Int {
        let storeFile = try TextOutput(path: folder + "/stores.csv")
        storeFile.write("code,name,region\n")
        let codes = (1...stores).map(SalesAuditData.storeCode)
        for (index, code) in codes.enumerated() { storeFile.write("\(code),Store \(index + 1),Region \(index % 4)\n") }
        storeFile.flush()
        let output = try TextOutput(path: folder + "/employee_sales.csv")
        output.write("Store #,Business Date,Emp #,Salesperson,Net Sales,Trans,Items Sold,CCP %,GP %\n")
        var random = SplitMix(seed: 12)
        var rows = 0
        var day = first
        while day <= last {
            let date = day.iso8601
            for (storeIndex, code) in codes.enumerated() {
                for associate in 0..<associates {
                    let id = storeIndex * associates + associate + 1
                    let transactions = 1 + Int(random.next() % 6)
                    let cents = transactions * 30_000 + Int(random.next() % 9_999)
                    output.write(
                        "\(code),\(date),\(id),Associate \(id),\(cents / 100).\(cents % 100 < 10 ? "0" : "")\(cents % 100),\(transactions),\(transactions + Int(random.next() % 3)),0.\(40 + random.next() % 20),0.5\n")
                    rows += 1
                }
            }
            day = day.adding(days: 1)
        }
        output.flush()
        return rows
    }
}

/// Times a query: the median and minimum of repeated runs, in milliseconds.
struct QueryTimer {
    let repetitions: Int

    func time(_ label: String, _ body: () throws -> Void) throws {
        var samples: [Double] = []
        for _ in 0..<max(repetitions, 1) {
            let started = Clock.now()
            try body()
            samples.append((Clock.now() - started) * 1000)
        }
        samples.sort()
        print("\(label): median \(Format.decimal(samples[samples.count / 2], places: 1)) ms, min \(Format.decimal(samples[0], places: 1)) ms over \(samples.count) runs")
    }
}
