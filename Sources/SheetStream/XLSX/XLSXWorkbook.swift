/// An XLSX (or XLSM) workbook read as a stream (ECMA-376 Part 1 SpreadsheetML, Part 2 OPC).
///
/// Opening reads only the package and workbook relationships and `workbook.xml`. The shared
/// strings and styles are loaded on the first `readRows`, and each sheet is then inflated and
/// parsed chunk by chunk: memory stays bounded by the shared-string table plus one row.
public final class XLSXWorkbook {
    /// The file's path.
    public var path: String { archive.path }
    /// The sheets in workbook order.
    public let sheets: [SheetInfo]
    /// The workbook's date system (`date1904`).
    public let dateSystem: ExcelDateSystem
    public let limits: XLSXLimits
    /// Problems the reader worked around, such as a corrupt relationships part, and those the
    /// sheets read so far worked around (a date past 9999-12-31 read as a number).
    public private(set) var warnings: [String]

    private let archive: ZipArchive
    private let workbookPart: String
    private let sharedStringsPart: String?
    private let stylesPart: String?
    private var loadedSharedStrings: [String]?
    private var loadedCellFormats: CellFormats?

    /// Statistics of the last `readRows` call, for memory-bound checks and benchmarks.
    public private(set) var lastReadStatistics = ReadStatistics()
    /// Which parser reads worksheets (tests compare the two).
    var worksheetParser = XMLPartReader.BulkParser.scanner

    /// What a sheet read held in memory at most.
    public struct ReadStatistics: Sendable {
        public var rows = 0
        public var sharedStrings = 0
        public var peakCellTextCapacity = 0
        public var peakRowCapacity = 0
    }

    /// Opens a workbook and reads its sheet list.
    public init(path: String, limits: XLSXLimits = .default) throws {
        self.limits = limits
        let archive = try ZipArchive(path: path, limits: limits.zip)
        self.archive = archive
        if archive.entry(named: "EncryptedPackage") != nil || archive.entry(named: "EncryptionInfo") != nil {
            throw ZipError(file: path, .encryptedOrLegacy)
        }
        var warnings: [String] = []
        let packageRelationships: Result<[Relationship], Error> = Result { try Self.relationships(of: "", in: archive) }
        if let office = (try? packageRelationships.get())?.first(where: {
            $0.kind == "officeDocument" && !$0.isExternal
        }) {
            workbookPart = PartPath.resolve(office.target, from: "")
        } else {
            // A missing or corrupt package relationships part is an index, not data: find the
            // workbook through the content types (then at its usual name), and say so.
            guard
                let fallback = Self.workbookPartFromContentTypes(in: archive)
                    ?? (archive.entry(named: "xl/workbook.xml") != nil ? "xl/workbook.xml" : nil)
            else {
                if case .failure(let error) = packageRelationships { throw error }
                throw XLSXError(
                    file: path, part: "_rels/.rels",
                    message: "no officeDocument relationship: not a spreadsheet package")
            }
            let reason: String
            switch packageRelationships {
            case .failure(let error): reason = "\(error)"
            case .success(let found):
                reason = found.isEmpty ? "\(path): _rels/.rels is missing" : "\(path): _rels/.rels names no workbook"
            }
            warnings.append("\(reason); workbook \(fallback) located through [Content_Types].xml instead")
            workbookPart = fallback
        }
        guard let workbookEntry = archive.entry(named: workbookPart) else {
            throw ZipError(file: path, part: workbookPart, .missingPart)
        }
        let workbook = WorkbookHandler()
        try XMLPartReader.parse(workbookEntry, in: archive, handler: workbook)
        dateSystem = workbook.uses1904 ? .date1904 : .date1900

        var relationships: [Relationship]
        do {
            relationships = try Self.relationships(of: workbookPart, in: archive)
        } catch {
            // A corrupt relationships part is an index, not data: rebuild it from the content
            // types and say so. Every part read afterwards is still CRC-checked.
            relationships = try Self.relationshipsFromContentTypes(in: archive, workbookPart: workbookPart)
            warnings.append("\(error); sheets located through [Content_Types].xml instead")
            let worksheets = relationships.filter { $0.kind == "worksheet" }
            for (position, sheet) in workbook.sheets.enumerated() where position < worksheets.count {
                relationships.append(
                    Relationship(
                        id: sheet.relationshipId, kind: "worksheet", target: worksheets[position].target,
                        isExternal: false))
            }
        }
        self.warnings = warnings
        var relationshipsById: [String: Relationship] = [:]
        for relationship in relationships where !relationship.isExternal {
            relationshipsById[relationship.id] = relationship
        }
        let source = workbookPart
        sheets = workbook.sheets.enumerated().map { index, entry in
            let relationship = relationshipsById[entry.relationshipId]
            return SheetInfo(
                name: entry.name, index: index, state: entry.state,
                partName: relationship.map { PartPath.resolve($0.target, from: source) },
                kind: relationship?.kind ?? "worksheet")
        }
        sharedStringsPart = relationships.first { $0.kind == "sharedStrings" && !$0.isExternal }
            .map { PartPath.resolve($0.target, from: source) }
        stylesPart = relationships.first { $0.kind == "styles" && !$0.isExternal }
            .map { PartPath.resolve($0.target, from: source) }
    }

    /// The sheet with a name (exact match first, then case-insensitive).
    public func sheet(named name: String) -> SheetInfo? {
        sheets.first { $0.name == name } ?? sheets.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The number of shared strings, loading the table if needed.
    public func sharedStringCount() throws -> Int { try sharedStrings().count }

    /// Streams the rows of a sheet in document order, reusing one `Row` buffer.
    ///
    /// Rows come as the sheet stores them (rows with no cells included); an error thrown by
    /// `body` stops the read and is rethrown.
    public func readRows(of sheet: SheetInfo, _ body: @escaping (Row) throws -> Void) throws {
        try readRowsHandingOver(of: sheet) {
            try body($0)
            return true
        }
    }

    /// Streams the rows of a sheet as `readRows(of:_:)` does while `body` returns true: the
    /// row it returns false for is the last one read.
    public func readRowsWhile(of sheet: SheetInfo, _ body: @escaping (Row) throws -> Bool) throws {
        try readRowsHandingOver(of: sheet) { try body($0) }
    }

    /// Streams the rows of a sheet as `readRowsWhile(of:_:)` does, handing `body` the reused row
    /// itself: it may take the row's cells and leave other storage for the next row to reuse
    /// (`Row.exchangeCells(with:)`).
    func readRowsHandingOver(of sheet: SheetInfo, _ body: @escaping (inout Row) throws -> Bool) throws {
        guard let partName = sheet.partName, let entry = archive.entry(named: partName) else {
            throw XLSXError(
                file: path, sheet: sheet.name, message: "the sheet's part \(sheet.partName ?? "(none)") is missing")
        }
        let strings = try sharedStrings()
        let formats = try cellFormats()
        let handler = SheetHandler(
            file: path, sheet: sheet.name, sharedStrings: strings, cellFormats: formats, dateSystem: dateSystem,
            maxCellBytes: limits.maxCellBytes, onRow: body)
        defer {
            for warning in handler.warnings where !warnings.contains(warning) { warnings.append(warning) }
        }
        do {
            try XMLPartReader.parseBulk(entry, in: archive, handler: handler, parser: worksheetParser)
        } catch {
            throw handler.rowError ?? error
        }
        lastReadStatistics = ReadStatistics(
            rows: handler.rowCount, sharedStrings: strings.count, peakCellTextCapacity: handler.peakTextCapacity,
            peakRowCapacity: handler.peakRowCapacity)
    }

    private func sharedStrings() throws -> [String] {
        if let loadedSharedStrings { return loadedSharedStrings }
        var strings: [String] = []
        if let sharedStringsPart, let entry = archive.entry(named: sharedStringsPart) {
            let handler = SharedStringsHandler(limits: limits)
            try XMLPartReader.parse(entry, in: archive, handler: handler)
            strings = handler.strings
        }
        loadedSharedStrings = strings
        return strings
    }

    private func cellFormats() throws -> CellFormats {
        if let loadedCellFormats { return loadedCellFormats }
        var formats = CellFormats()
        if let stylesPart, let entry = archive.entry(named: stylesPart) {
            let handler = StylesHandler()
            try XMLPartReader.parse(entry, in: archive, handler: handler)
            formats = handler.cellFormats
        }
        loadedCellFormats = formats
        return formats
    }

    private static func relationshipsFromContentTypes(in archive: ZipArchive, workbookPart: String) throws
        -> [Relationship]
    {
        guard let entry = archive.entry(named: "[Content_Types].xml") else {
            throw ZipError(file: archive.path, part: "[Content_Types].xml", .missingPart)
        }
        let handler = ContentTypesHandler()
        try XMLPartReader.parse(entry, in: archive, handler: handler)
        return handler.inferredRelationships(workbookPart: workbookPart)
    }

    /// The workbook part `[Content_Types].xml` names (a main spreadsheet document of any kind:
    /// workbook, macro-enabled, template); `nil` when there is none or the part cannot be read.
    private static func workbookPartFromContentTypes(in archive: ZipArchive) -> String? {
        guard let entry = archive.entry(named: "[Content_Types].xml") else { return nil }
        let handler = ContentTypesHandler()
        guard (try? XMLPartReader.parse(entry, in: archive, handler: handler)) != nil else { return nil }
        let main = handler.overrides.first {
            $0.contentType.contains(".spreadsheetml.") && $0.contentType.hasSuffix(".main+xml")
        }
        guard let part = main?.part, archive.entry(named: part) != nil else { return nil }
        return part
    }

    private static func relationships(of part: String, in archive: ZipArchive) throws -> [Relationship] {
        guard let entry = archive.entry(named: PartPath.relationships(of: part)) else { return [] }
        let handler = RelationshipsHandler()
        try XMLPartReader.parse(entry, in: archive, handler: handler)
        return handler.relationships
    }
}
