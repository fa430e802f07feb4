#if canImport(Glibc)
    import Glibc
#endif

/// Wall time, CPU time and peak RSS of one child process (`posix_spawnp` + `wait4`).
struct Measurement {
    let label: String
    let seconds: Double
    /// User and system CPU time of the child, its threads together.
    let cpuSeconds: Double
    let peakKilobytes: Int
    let output: String

    static func run(label: String, _ arguments: [String]) throws -> Measurement {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let started = Clock.now()
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            throw BenchError("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { read(pipeEnds[0], $0.baseAddress, $0.count) }
            if got <= 0 { break }
            output.append(contentsOf: chunk[0..<got])
        }
        close(pipeEnds[0])
        var exitStatus: Int32 = 0
        var usage = rusage()
        wait4(pid, &exitStatus, 0, &usage)
        let elapsed = Clock.now() - started
        var text = String(decoding: output, as: UTF8.self).trimmingCharacters(in: " \n")
        var peak = Int(usage.ru_maxrss)
        // A child that reports its own VmHWM is believed over wait4's ru_maxrss, which includes
        // the pages of this (Foundation-linked) parent that the child inherited until exec.
        if let range = text.range(of: " peakRSSKiB=") ?? text.range(of: "peakRSSKiB="),
            let own = Int(text[range.upperBound...])
        {
            peak = own
            text = String(text[..<range.lowerBound])
        }
        guard exitStatus == 0 else {
            throw BenchError("\(label) failed (status \(exitStatus))\(text.isEmpty ? "" : ": " + text)")
        }
        let cpu = [usage.ru_utime, usage.ru_stime].reduce(0.0) { $0 + Double($1.tv_sec) + Double($1.tv_usec) / 1e6 }
        return Measurement(label: label, seconds: elapsed, cpuSeconds: cpu, peakKilobytes: peak, output: text)
    }

    /// An executable built beside this one.
    static func sibling(_ name: String) -> String {
        String(CommandLine.arguments[0].dropLast("ddkpi-bench".count)) + name
    }

    /// The reading child: SheetStream alone, so its peak RSS is the reader's, not Foundation's
    /// (which GRDB brings into `ddkpi` and `ddkpi-bench` before a byte is read).
    static var reader: String { sibling("ddkpi-bench-read") }

    /// Runs a comparison tool; one that is missing or fails is reported and skipped.
    static func compare(label: String, _ arguments: [String]) -> Measurement? {
        do {
            return try run(label: label, arguments)
        } catch {
            Swift.print("\(label): unavailable here (\(String(describing: error).prefix(160)))")
            return nil
        }
    }

    func print(rows: Int, bytes: UInt64) {
        let name = label + String(repeating: " ", count: max(0, 24 - label.count))
        let rate = Format.thousands(Int(Double(rows) / seconds))
        let throughput = Double(bytes) / 1_048_576 / seconds
        Swift.print(
            "\(name) \(Format.seconds(seconds))  \(rate) rows/s  \(Format.decimal(throughput, places: 1)) MB/s  peak RSS \(Format.decimal(Double(peakKilobytes) / 1024, places: 1)) MiB\(output.isEmpty ? "" : "  [\(output)]")"
        )
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

enum Clock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

enum FileSystem {
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }
    static func remove(_ path: String) { unlink(path) }
    static func size(_ path: String) -> UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }
}

enum Format {
    static func seconds(_ value: Double) -> String { decimal(value, places: 2) + " s" }
    static func megabytes(_ bytes: UInt64) -> String { decimal(Double(bytes) / 1_000_000, places: 1) + " MB" }
    static func ratio(_ value: Double) -> String { decimal(value, places: 2) + "x" }

    /// Cents as a plain decimal amount: `12345` → `123.45`.
    static func cents(_ cents: Int) -> String {
        "\(cents / 100)." + (cents % 100 < 10 ? "0" : "") + String(cents % 100)
    }

    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        let fraction = String(abs(scaled) % Int(scale))
        return places == 0
            ? String(whole) : "\(whole).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }

    static func thousands(_ value: Int) -> String {
        let digits = Array(String(value))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}

extension String {
    func trimmingCharacters(in characters: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

/// The comparison tools' one-liners, each reading every row of the file.
enum Scripts {
    static let calamine = """
        import sys
        from python_calamine import CalamineWorkbook
        n = 0
        for row in CalamineWorkbook.from_path(sys.argv[1]).get_sheet_by_index(0).iter_rows():
            n += 1
        print(f"rows={n}")
        """
    static let duckdbXLSX = """
        import sys, duckdb
        con = duckdb.connect()
        con.execute("SET enable_progress_bar = false")
        print(con.execute('SELECT count(*), sum("Net Sales") FROM read_xlsx(?, ignore_errors = true)', [sys.argv[1]]).fetchone())
        """
    /// The obvious alternative: pandas with the calamine engine, then one sqlite3 transaction of upserts.
    static let pandasUpsert = """
        import sys, sqlite3
        import pandas as pd
        df = pd.read_excel(sys.argv[1], engine="calamine")
        con = sqlite3.connect(sys.argv[2])
        con.execute("CREATE TABLE IF NOT EXISTS store_report (store_code TEXT, date TEXT, total_sales REAL, total_transactions INTEGER, total_items INTEGER, ccp_pct REAL, gp_pct REAL, PRIMARY KEY (store_code, date))")
        rows = zip(df["Store"].astype(str), pd.to_datetime(df["Date"]).dt.strftime("%Y-%m-%d"), df["Net Sales"], df["Transactions"].astype(int), df["Items"].astype(int), df["CCP %"], df["GP %"])
        with con:
            con.executemany("INSERT INTO store_report VALUES (?,?,?,?,?,?,?) ON CONFLICT (store_code, date) DO UPDATE SET total_sales = excluded.total_sales, total_transactions = excluded.total_transactions, total_items = excluded.total_items, ccp_pct = excluded.ccp_pct, gp_pct = excluded.gp_pct", rows)
        print(f"rows={len(df)}")
        """
    /// DuckDB's `read_csv` timed as SPEC section 13 asks: inside one open connection, its default
    /// threads, one warm-up, then the median of five runs (Python's start-up and import are not
    /// counted). Prints `median=SECONDS` and the result.
    static let duckdbCSV = """
        import sys, time, statistics, duckdb
        con = duckdb.connect()
        query = "SELECT count(*), sum(net_sales) FROM read_csv(?)"
        result = con.execute(query, [sys.argv[1]]).fetchone()
        times = []
        for _ in range(5):
            started = time.perf_counter()
            con.execute(query, [sys.argv[1]]).fetchone()
            times.append(time.perf_counter() - started)
        threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
        print(f"median={statistics.median(times):.4f} threads={threads} {result}")
        """
}
