import SheetStream

#if canImport(Glibc)
    import Glibc
#endif

/// The child process `ddkpi-bench` times: it links SheetStream only, so that its peak RSS is
/// what reading costs.
///
///     ddkpi-bench-read read FILE        read every row of the first sheet, print counts
///     ddkpi-bench-read sax-floor FILE   libxml2 SAX over an XML file with no callbacks
let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ddkpi-bench-read read|sax-floor FILE")
    exit(2)
}
do {
    switch arguments[1] {
    case "read": print(try readFirstSheet(arguments[2]) + " peakRSSKiB=\(peakResidentKiB())")
    case "sax-floor":
        try saxFloor(arguments[2])
        print("peakRSSKiB=\(peakResidentKiB())")
    default:
        print("unknown command \(arguments[1])")
        exit(2)
    }
} catch {
    print("\(error)")
    exit(1)
}

/// Reads every row of a file's first sheet, touching every cell (whether a CSV field is empty,
/// without making a `String` of it, as a consumer that reads only some columns would; an XLSX
/// row's finished cells); returns what it saw.
func readFirstSheet(_ path: String) throws -> String {
    let file = try SpreadsheetFile.open(path: path)
    guard let sheet = file.sheets.first else { return "rows=0" }
    var rows = 0
    var cells = 0
    var numericSum = 0.0
    let isCSV = if case .csv = file { true } else { false }
    try file.readRows(of: sheet) { row in
        rows += 1
        if isCSV {
            for column in 0..<row.width where !row.isEmpty(at: column) { cells += 1 }
            return
        }
        for cell in row.cells {
            switch cell {
            case .empty: continue
            case .number(let value): numericSum += value
            default: break
            }
            cells += 1
        }
    }
    var extra = ""
    if case .xlsx(let workbook) = file {
        let stats = workbook.lastReadStatistics
        extra =
            " sharedStrings=\(stats.sharedStrings) peakRowCapacity=\(stats.peakRowCapacity) peakCellTextCapacity=\(stats.peakCellTextCapacity)"
    }
    return "rows=\(rows) cells=\(cells) numericSum=\(numericSum)\(extra)"
}

/// This process's own peak resident set (`VmHWM` of /proc/self/status), in KiB.
///
/// Not `getrusage`: Linux carries the parent's resident pages into a spawned child's `ru_maxrss`
/// at exec, so a child of a 21 MiB benchmark would report at least 21 MiB whatever it does.
func peakResidentKiB() -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(cString: line)
        if text.hasPrefix("VmHWM:") {
            return Int(text.dropFirst(6).filter { $0.isNumber }) ?? 0
        }
    }
    return 0
}
