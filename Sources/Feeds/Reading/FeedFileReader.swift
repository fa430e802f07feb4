import CivilCalendar
import SheetStream
import Threads

/// Reads one feed file: finds the header row (in the first visible worksheet that has one),
/// then maps every later row to a record, a counted skip or a reject (SPEC sections 3 and 4).
///
/// Row-per-key feeds (sales audit, stores, goals) are emitted as they are read; event feeds are
/// aggregated to their dedup key and emitted at the end, so memory is bounded by the keys of
/// one file, never by its rows.
public struct FeedFileReader {
    /// How many rejects a result keeps in full (all are counted).
    public static let keptRejects = 1000

    public let definition: FeedDefinition
    public let directory: StoreDirectory
    public let options: FeedOptions
    /// How often `read`'s `progress` is told the rows read so far.
    public static let progressInterval = 65_536

    public init(definition: FeedDefinition, directory: StoreDirectory, options: FeedOptions) {
        self.definition = definition
        self.directory = directory
        self.options = options
    }

    /// Reads `file`, handing records to `emit` (which may throw to abort the file) and the rows
    /// read so far to `progress` every `progressInterval` rows.
    public func read(
        _ file: SpreadsheetFile, progress: ((Int) -> Void)? = nil, emit: (FeedRecord) throws -> Void
    ) throws -> FeedReadResult {
        try read(file, progress: progress, emitWithRow: { record, _ in try emit(record) })
    }

    /// Reads `file` as `read(_:progress:emit:)` does, handing each record with its source row:
    /// the 1-based sheet row or CSV record it was read from (for a count of events, the first
    /// row that counted in it).
    ///
    /// The file is parsed on a background thread and `emit` called on the calling thread, so
    /// that writing records overlaps reading the rows after them. A CSV's rows are mapped to
    /// records on the reading thread, so for a CSV `progress` is called there, while `emit` may
    /// be running; an XLSX's rows are mapped, and `progress` called, on the calling thread.
    public func read(
        _ file: SpreadsheetFile, progress: ((Int) -> Void)? = nil,
        emitWithRow emit: (FeedRecord, _ row: Int) throws -> Void
    ) throws -> FeedReadResult {
        try read(FirstRows(of: file, searchRows: options.headerSearchRows), progress: progress, emitWithRow: emit)
    }

    /// Reads the file of `firstRows` as `read(_:progress:emitWithRow:)` does, looking for the
    /// header among the rows feed detection has read already rather than reading them again.
    public func read(
        _ firstRows: FirstRows, progress: ((Int) -> Void)? = nil,
        emitWithRow emit: (FeedRecord, _ row: Int) throws -> Void
    ) throws -> FeedReadResult {
        let file = firstRows.file
        let (sheet, header) = try findHeader(in: firstRows)
        let isCSV = { if case .csv = file { return true } else { return false } }()
        var mapper = FeedRowMapper(
            reader: self, header: header, file: Self.fileName(file.path), sheet: sheet.name, isCSV: isCSV,
            dateSystem: file.dateSystem)
        mapper.progress = progress
        // The mapper goes to one thread or the other whole: nothing here touches it after this.
        var result =
            isCSV
            ? try mapWhileReading(file, sheet, mapper, emit: emit)
            : try mapAfterReading(file, sheet, mapper, emit: emit)
        result.warnings.append(contentsOf: file.warnings)
        return result
    }

    /// Maps rows on the reading thread, straight from the reader's buffer, and hands the records
    /// to `emit` on this one. For CSV, whose parsing leaves that thread mostly idle: the mapping
    /// moves off the writing thread (docs/decisions.md#threads-of-one-ingest).
    private func mapWhileReading(
        _ file: SpreadsheetFile, _ sheet: SheetInfo, _ mapper: FeedRowMapper,
        emit: (FeedRecord, _ row: Int) throws -> Void
    ) throws -> FeedReadResult {
        let headerRow = mapper.header.row
        return try BatchPipeline.run(
            produce: { (emitRecord: (MappedRecord) throws -> Void) -> FeedReadResult in
                var mapper = mapper
                try withoutActuallyEscaping(emitRecord) { emitRecord in
                    try file.readRows(of: sheet) { row in
                        guard row.number > headerRow else { return }
                        try mapper.map(row) { try emitRecord(MappedRecord(record: $0, row: $1)) }
                    }
                    try mapper.finish { try emitRecord(MappedRecord(record: $0, row: $1)) }
                }
                return mapper.result
            },
            consume: { try emit($0.record, $0.row) })
    }

    /// Maps rows on this thread as the reading thread hands them over. For XLSX, whose reading
    /// already keeps a second core busy (XML on one thread, inflating on another): handing
    /// records across costs that thread more than the writer saves, measured twice
    /// (docs/decisions.md#threads-of-one-ingest).
    private func mapAfterReading(
        _ file: SpreadsheetFile, _ sheet: SheetInfo, _ mapper: FeedRowMapper,
        emit: (FeedRecord, _ row: Int) throws -> Void
    ) throws -> FeedReadResult {
        var mapper = mapper
        let headerRow = mapper.header.row
        try file.readRowsConcurrently(of: sheet) { row in
            guard row.number > headerRow else { return }
            try mapper.map(row, emit: emit)
        }
        try mapper.finish(emit: emit)
        return mapper.result
    }

    /// The first visible worksheet (then hidden ones) with this feed's header in its first rows.
    func findHeader(in firstRows: FirstRows) throws -> (SheetInfo, HeaderMap) {
        let search = try searchHeader(in: firstRows)
        if let header = search.header, let sheet = search.sheet { return (sheet, header) }
        let layouts = definition.layouts.map { layout in
            layout.map { $0.anyOf.count == 1 ? $0.anyOf[0].name : "a weekday column" }.joined(separator: " + ")
        }
        let closest =
            search.fit.map { fit in
                let cells =
                    options.errorsQuoteCells
                    ? "headers seen: " + fit.columns.map(\.header).joined(separator: ", ")
                    : "a row of \(fit.columns.count) columns"
                return "row \(fit.row) of \(search.sheet?.name ?? "the file") comes closest (\(cells)): "
                    + fit.explanation(quotingCells: options.errorsQuoteCells)
            } ?? search.seen.described(quotingCells: options.errorsQuoteCells)
        throw FeedError(
            file: Self.fileName(firstRows.file.path),
            message:
                "no \(definition.id.rawValue) header row in the first \(options.headerSearchRows) rows of any sheet: expected columns for \(layouts.joined(separator: " or ")); \(closest)"
        )
    }

    /// Looks for this feed's header row as `findHeader` does, among rows feed detection may have
    /// read already, and says how the row found, or else the row that came closest (the most
    /// columns naming a field), fits the feed.
    public func searchHeader(in firstRows: FirstRows) throws -> HeaderSearch {
        var seen = SeenHeaderRow()
        var closest: (sheet: SheetInfo, fit: HeaderFit)?
        var header: HeaderMap?
        let sheets = firstRows.worksheets
        for sheet in sheets.filter({ $0.state == .visible }) + sheets.filter({ $0.state != .visible }) {
            let found = try firstRows.contains(in: sheet) { row in
                header = HeaderMap.match(row, definition: definition)
                if header != nil {
                    closest = (sheet, HeaderFit(row, definition: definition))
                    return true
                }
                seen.note(row)
                let fit = HeaderFit(row, definition: definition)
                if fit.fieldCount > (closest?.fit.fieldCount ?? 0) { closest = (sheet, fit) }
                return false
            }
            if found { return HeaderSearch(sheet: sheet, header: header, fit: closest?.fit, seen: seen) }
        }
        return HeaderSearch(sheet: closest?.sheet ?? sheets.first, header: nil, fit: closest?.fit, seen: seen)
    }

    /// The last path component of a path.
    public static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}

/// What a header search found: the header row and its sheet, or the row closest to one.
public struct HeaderSearch {
    /// The header's sheet, or the closest row's (the first worksheet when no row came close).
    public var sheet: SheetInfo?
    /// The header row, when found.
    public var header: HeaderMap?
    /// How the header row, or else the closest row, fits the feed; `nil` when no row named a field.
    public var fit: HeaderFit?
    let seen: SeenHeaderRow
}

/// A record on its way from the reading thread to the writing one, with its source row.
struct MappedRecord {
    var record: FeedRecord
    var row: Int
}
