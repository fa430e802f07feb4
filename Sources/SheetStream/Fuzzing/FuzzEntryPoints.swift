import Threads

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The readers on raw input, for the fuzz targets (`Sources/fuzz-*`): each runs one reader to
/// its end or its first error. An error is a correct answer to hostile input; only a crash, a
/// hang, a leak or (for the differential target) a disagreement is a finding.
@_spi(Fuzzing) public enum FuzzEntryPoints {
    /// What a read gave: its rows, or the type of the error that stopped it.
    public enum Outcome: Equatable, Sendable {
        case rows(numbers: [Int], cells: [[Cell]])
        case failed(String)

        /// The same rows, or both a failure (of whatever type: the parser may stop a malformed
        /// part, or the sheet reader a value that parses but means nothing).
        public func agrees(with other: Outcome) -> Bool {
            switch (self, other) {
            case (.failed, .failed): return true
            default: return self == other
            }
        }
    }

    /// Reads every sheet of the workbook at `path` (zip, workbook, styles, shared strings, rows).
    public static func readWorkbook(path: String) {
        guard let workbook = try? XLSXWorkbook(path: path) else { return }
        for sheet in workbook.sheets {
            try? workbook.readRows(of: sheet) { _ in }
        }
    }

    /// What reading a CSV file gave: its rows and warnings, then the error that stopped it.
    public struct CSVOutcome: Equatable, Sendable {
        public var numbers: [Int] = []
        /// How many cells each row has.
        public var widths: [Int] = []
        /// The rows' cells, one row's after another's: no array per row, and no copy of a row's
        /// cells that would make the reader's next row allocate its own.
        public var cells: [Cell] = []
        public var warnings: [String] = []
        public var error = ""
    }

    /// The reading thread of every CSV input, since starting one per input costs more than reading it.
    private static let csvWorker = try? WorkerThread()

    /// What the three reads of a CSV file gave: with the fast path, through the state machine
    /// alone, and on a reading thread.
    public typealias CSVReads = (fast: CSVOutcome, stateMachine: CSVOutcome, concurrent: CSVOutcome)

    /// `readCSV(descriptor:delimiter:chunkSize:batchSize:)` on the file at `path`.
    public static func readCSV(path: String, delimiter: UInt8? = nil, chunkSize: Int = 1024, batchSize: Int)
        -> CSVReads
    {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        defer { if descriptor >= 0 { close(descriptor) } }
        return readCSV(descriptor: descriptor, delimiter: delimiter, chunkSize: chunkSize, batchSize: batchSize)
    }

    /// What reading the CSV file open at `descriptor` (left open) gives with the fast path,
    /// through the state machine alone, and on a reading thread handing rows over `batchSize`
    /// at a time.
    public static func readCSV(descriptor: Int32, delimiter: UInt8? = nil, chunkSize: Int = 1024, batchSize: Int)
        -> CSVReads
    {
        // One reader for the three reads, its delimiter sniffed once (from a small sample: a large
        // one is a cost paid on every input), reading small chunks under small limits, so that
        // short inputs cross chunk boundaries, where a streaming parser goes wrong, and reach them.
        let options = CSVOptions(
            delimiter: delimiter, maxFieldBytes: 64, maxRecordBytes: 256, maxFields: 16, chunkSize: max(1, chunkSize),
            sniffSampleSize: 1024)
        let reader: CSVReader
        do {
            // The reader owns a duplicate of the descriptor, which costs no path lookup (when
            // there is no descriptor to duplicate, its first read fails).
            reader = try CSVReader(descriptor: dup(descriptor), path: "fuzz.csv", options: options)
        } catch {
            let failed = CSVOutcome(error: "\(error)")
            return (failed, failed, failed)
        }
        let file = SpreadsheetFile.csv(reader)
        let sheets = file.sheets
        func read(fastPath: Bool, _ readRows: (_ body: (Row) throws -> Void) throws -> Void) -> CSVOutcome {
            reader.readsSimpleRecordsFast = fastPath
            reader.warnings = []
            var outcome = CSVOutcome()
            do {
                try readRows { row in
                    outcome.numbers.append(row.number)
                    outcome.widths.append(row.width)
                    for column in 0..<row.width { outcome.cells.append(row[column]) }
                }
            } catch {
                outcome.error = "\(error)"
            }
            outcome.warnings = reader.warnings
            return outcome
        }
        return (
            read(fastPath: true) { try reader.readRows($0) },
            read(fastPath: false) { try reader.readRows($0) },
            read(fastPath: true) { body in
                for sheet in sheets {
                    try file.readRowsConcurrently(of: sheet, batchSize: batchSize, on: csvWorker, body)
                }
            }
        )
    }

    /// Runs `XMLScanner` alone over `bytes`, with a handler that only looks at the events.
    public static func scanXML(_ bytes: [UInt8]) {
        _ = try? XMLScanner(source: MemorySource(bytes), handler: SAXHandler(), file: "fuzz", part: "part.xml").parse()
    }

    /// The rows of worksheet XML read by `XMLScanner` (`libxml2` false) or by libxml2, with no
    /// shared strings and no styles.
    public static func worksheetRows(_ bytes: [UInt8], libxml2: Bool) -> Outcome {
        var rows: [Row] = []
        let handler = SheetHandler(
            file: "fuzz", sheet: "Sheet1", sharedStrings: [], cellFormats: CellFormats(), dateSystem: .date1900,
            maxCellBytes: XLSXLimits.default.maxCellBytes,
            onRow: {
                rows.append($0)
                return true
            })
        do {
            if libxml2 {
                try XMLStreamParser.parse(MemorySource(bytes), handler: handler, file: "fuzz", part: "sheet.xml")
            } else {
                let outcome = try XMLScanner(
                    source: MemorySource(bytes), handler: handler, file: "fuzz", part: "sheet.xml"
                ).parse()
                // The scanner hands parts that are not UTF-8 to libxml2, as the workbook reader does.
                if outcome != .parsed { return worksheetRows(bytes, libxml2: true) }
            }
            if let error = handler.rowError { return .failed(String(describing: type(of: error))) }
            return .rows(numbers: rows.map(\.number), cells: rows.map(\.cells))
        } catch {
            return .failed(String(describing: type(of: handler.rowError ?? error)))
        }
    }
}

/// Bytes in memory as a `ByteSource`.
final class MemorySource: ByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            guard let base = source.baseAddress else { return }
            buffer.baseAddress?.copyMemory(from: base + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
