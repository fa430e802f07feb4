import Threads

/// An XLSX workbook or a CSV file behind one interface: its sheets and their rows.
///
/// `.xlsx`, `.xlsm`, `.xltx` and `.xltm` files, and any file that starts with a zip or OLE
/// signature, are read as workbooks; everything else as CSV, which has one sheet named after the
/// file.
public enum SpreadsheetFile {
    case xlsx(XLSXWorkbook)
    case csv(CSVReader)

    /// Opens a file as a workbook or as CSV, by extension and content.
    public static func open(
        path: String, csvOptions: CSVOptions = CSVOptions(), limits: XLSXLimits = .default
    ) throws -> SpreadsheetFile {
        if isWorkbook(path: path) {
            return .xlsx(try XLSXWorkbook(path: path, limits: limits))
        }
        return .csv(try CSVReader(path: path, options: csvOptions))
    }

    /// The file's path.
    public var path: String {
        switch self {
        case .xlsx(let workbook): return workbook.path
        case .csv(let reader): return reader.path
        }
    }

    /// The sheets: a workbook's in order, or the single sheet of a CSV file.
    public var sheets: [SheetInfo] {
        switch self {
        case .xlsx(let workbook): return workbook.sheets
        case .csv(let reader):
            return [SheetInfo(name: Self.baseName(reader.path), index: 0, state: .visible, partName: nil, kind: "csv")]
        }
    }

    /// The sheet with a name (of any kind), or the first worksheet when `name` is `nil`: a chart
    /// sheet listed first has no rows to read.
    public func sheet(named name: String?) -> SheetInfo? {
        guard let name else { return sheets.first(where: \.isWorksheet) }
        switch self {
        case .xlsx(let workbook): return workbook.sheet(named: name)
        case .csv: return sheets.first { $0.name == name }
        }
    }

    /// Streams the rows of a sheet.
    public func readRows(of sheet: SheetInfo, _ body: @escaping (Row) throws -> Void) throws {
        switch self {
        case .xlsx(let workbook): try workbook.readRows(of: sheet, body)
        case .csv(let reader): try reader.readRows(body)
        }
    }

    /// Reads the rows of `sheet` in order while `body` returns true: the row it returns false
    /// for is the last one read (a look at a file's first rows stops there).
    public func readRowsWhile(of sheet: SheetInfo, _ body: @escaping (Row) throws -> Bool) throws {
        switch self {
        case .xlsx(let workbook): try workbook.readRowsWhile(of: sheet, body)
        case .csv(let reader): try reader.readRowsWhile(body)
        }
    }

    /// Reads the rows of `sheet` on a background thread and hands them to `body` on this one
    /// (see `BatchPipeline`): parsing, and making CSV fields into `String` cells, overlap with
    /// what `body` does with each row. Each row is `body`'s to keep, though one it does not
    /// keep lends its storage to a later row (no allocation per row). `batchSize` rows cross
    /// the threads at a time, so a small one makes a short file's rows cross them in batches
    /// too, and `worker` reads them instead of a thread started for this read.
    public func readRowsConcurrently(
        of sheet: SheetInfo, batchSize: Int = BatchPipeline.defaultBatchSize, on worker: WorkerThread? = nil,
        _ body: (Row) throws -> Void
    ) throws {
        try BatchPipeline.run(
            batchSize: max(1, batchSize), blank: Row(number: 0, cells: []), on: worker,
            recycling: { emit in
                try withoutActuallyEscaping(emit) { emit in
                    switch self {
                    case .xlsx(let workbook):
                        // The batch takes the reader's cells and gives it back an earlier row's.
                        try workbook.readRowsHandingOver(of: sheet) { row in
                            try emit { $0.exchangeCells(with: &row) }
                            return true
                        }
                    case .csv(let reader):
                        try reader.readRows { row in try emit { $0.refill(from: row) } }
                    }
                }
            },
            // Lent from the batch's slot, not copied out of it (`BatchPipeline`).
            consume: { row in try body(row) })
    }

    /// The date system serial numbers count in (CSV has no serials of its own; 1900 is assumed).
    public var dateSystem: ExcelDateSystem {
        if case .xlsx(let workbook) = self { return workbook.dateSystem }
        return .date1900
    }

    /// Reader warnings (CSV text decoded as Windows-1252, a workbook's corrupt relationships part).
    public var warnings: [String] {
        switch self {
        case .xlsx(let workbook): return workbook.warnings
        case .csv(let reader): return reader.warnings
        }
    }

    static func isWorkbook(path: String) -> Bool {
        let lowered = path.lowercased()
        if [".xlsx", ".xlsm", ".xltx", ".xltm"].contains(where: lowered.hasSuffix) { return true }
        guard let file = try? ReadOnlyFile(path: path), file.size >= 4,
            let head = try? file.readExactly(4, at: 0, what: "signature")
        else { return false }
        return head == [0x50, 0x4B, 0x03, 0x04] || head == [0x50, 0x4B, 0x05, 0x06] || head == [0xD0, 0xCF, 0x11, 0xE0]
    }

    static func baseName(_ path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}
