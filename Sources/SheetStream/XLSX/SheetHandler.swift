/// Streams `<sheetData>` rows out of a worksheet part (ECMA-376 Part 1, §18.3.1), one reused
/// `Row` at a time, handing each to `onRow` as soon as its `</row>` is parsed. `onRow` may take
/// the row's storage and leave other storage in its place (`Row.exchangeCells(with:)`), which
/// the next row then reuses.
///
/// Cell and row references are optional (cells without `r` follow the previous cell, rows without
/// `r` follow the previous row); `<dimension>` is never trusted; formula cells give their cached value.
/// A reference outside the sheet's bounds (`A0`, `XFE1`, row 1,048,577) or a row number not after
/// the previous row's is an error naming it.
final class SheetHandler: SAXHandler {
    private enum CellType { case number, sharedString, formulaString, inlineString, boolean, error, isoDate }

    private let sharedStrings: [String]
    private let cellFormats: CellFormats
    private let dateSystem: ExcelDateSystem
    private let maxCellBytes: Int
    /// Takes each row; returns whether the read goes on.
    private let onRow: (inout Row) throws -> Bool
    private let file: String
    private let sheet: String

    /// The row being filled and the current cell's text, behind one pointer (see `Scratch`).
    private let scratch = UnsafeMutablePointer<Scratch>.allocate(capacity: 1)
    private var inSheetData = false
    private var inRow = false
    private var column = -1
    private var cellType = CellType.number
    private var styleIndex = 0
    private var collecting = false
    private var hasValue = false
    private var hasInlineText = false
    private var inInlineString = false
    private var phoneticDepth = 0
    /// The error that stopped the read: a cell the reader cannot make sense of, or one thrown by `onRow`.
    private(set) var rowError: Error?
    /// What the read worked around, each naming its cell (the first `maxWarnings`): a number with
    /// a date format past 9999-12-31, which Excel shows as `#####`, read as a number.
    private(set) var warnings: [String] = []
    static let maxWarnings = 5

    /// Rows handed out so far.
    private(set) var rowCount = 0
    /// The largest capacity the reused text buffer reached (for memory-bound checks).
    private(set) var peakTextCapacity = 0
    /// The largest capacity the reused row buffer reached.
    private(set) var peakRowCapacity = 0

    /// The reused row and cell text. They sit behind an `UnsafeMutablePointer` rather than in
    /// stored properties because mutating a class's stored struct through a call that may
    /// allocate costs a dynamic exclusivity check (`swift_beginAccess`) per access, once or
    /// more per cell. Only this handler touches them, from the parsing thread.
    private struct Scratch {
        var row = Row(number: 0, cells: [])
        var text = ByteBuffer()
    }

    init(
        file: String, sheet: String, sharedStrings: [String], cellFormats: CellFormats, dateSystem: ExcelDateSystem,
        maxCellBytes: Int, onRow: @escaping (inout Row) throws -> Bool
    ) {
        self.file = file
        self.sheet = sheet
        self.sharedStrings = sharedStrings
        self.cellFormats = cellFormats
        self.dateSystem = dateSystem
        self.maxCellBytes = maxCellBytes
        self.onRow = onRow
        scratch.initialize(to: Scratch())
    }

    deinit {
        scratch.pointee.text.deallocate()
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    override func startElement(_ name: XMLName, _ attributes: XMLAttributes) {
        guard inSheetData else {
            if name.is("sheetData") { inSheetData = true }
            return
        }
        switch name.first {
        case UInt8(ascii: "c") where name.count == 1:
            startCell(attributes)
        case UInt8(ascii: "v") where name.count == 1:
            startValue()
        case UInt8(ascii: "t") where name.count == 1:
            if inInlineString && phoneticDepth == 0 { collecting = true }
        case UInt8(ascii: "r"):
            if name.is("row") { startRow(attributes) } else if name.is("rPh") { phoneticDepth += 1 }
        case UInt8(ascii: "i") where name.is("is"):
            inInlineString = true
            hasInlineText = true
            scratch.pointee.text.removeAll()
        default:
            break
        }
    }

    override func endElement(_ name: XMLName) {
        guard inSheetData, rowError == nil else { return }
        switch name.first {
        case UInt8(ascii: "c") where name.count == 1:
            endCell()
        case UInt8(ascii: "v") where name.count == 1:
            endValue()
        case UInt8(ascii: "t") where name.count == 1:
            collecting = false
        case UInt8(ascii: "r"):
            if name.is("row") { endRow() } else if name.is("rPh") { phoneticDepth = max(0, phoneticDepth - 1) }
        case UInt8(ascii: "i") where name.is("is"):
            inInlineString = false
        case UInt8(ascii: "s") where name.is("sheetData"):
            inSheetData = false
        default:
            break
        }
    }

    override func characters(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard collecting else { return }
        collect(chunk)
    }

    /// A whole `<v>` in one call: what its start, text and end events do.
    override func leafElement(_ name: XMLName, _ value: UnsafeBufferPointer<UInt8>) {
        guard inSheetData, name.isLetter("v") else { return super.leafElement(name, value) }
        startValue()
        collect(value)
        if rowError == nil { endValue() }
    }

    /// A whole `<c …><v>…</v></c>` in one call: what its events do, the value read where it
    /// stands instead of collected (so the cell leaves the reused text buffer, and with it
    /// `peakTextCapacity`, untouched).
    override func elementWithLeaf(
        _ name: XMLName, _ attributes: XMLAttributes, leaf: XMLName, _ text: UnsafeBufferPointer<UInt8>
    ) {
        guard inSheetData, name.isLetter("c"), leaf.isLetter("v") else {
            return super.elementWithLeaf(name, attributes, leaf: leaf, text)
        }
        startCell(attributes)
        guard rowError == nil, isWithinCellLimit(text.count) else { return }
        finishCell(value: text)
    }

    private func startValue() {
        scratch.pointee.text.removeAll()
        collecting = true
    }

    private func collect(_ chunk: UnsafeBufferPointer<UInt8>) {
        guard isWithinCellLimit(scratch.pointee.text.count + chunk.count) else { return }
        scratch.pointee.text.append(chunk)
    }

    /// Whether a cell's text of `length` bytes is within the limit; fails the read if not.
    @inline(__always) private func isWithinCellLimit(_ length: Int) -> Bool {
        guard length <= maxCellBytes else {
            failCellTooLong()
            return false
        }
        return true
    }

    private func failCellTooLong() {
        fail(column: column, "cell text is longer than \(maxCellBytes) bytes (the limit)")
    }

    private func endValue() {
        collecting = false
        hasValue = true
    }

    /// Starts the row that the `r` attribute numbers (without one, the row after the previous),
    /// refusing a number outside 1…1,048,576 or not after the previous row's: a fuzzed
    /// `r="231999999999940"` would otherwise make a consumer that fills gaps write rows without end.
    private func startRow(_ attributes: XMLAttributes) {
        let previous = scratch.pointee.row.number
        let number: Int
        if let value = attributes.value("r") {
            guard let parsed = CellReference.parseRow(value) else {
                failRow("row r=\"\(Self.excerpt(value))\" (after row \(previous)): \(CellReference.expectedRow)")
                return
            }
            number = parsed
        } else {
            guard previous < CellReference.maxRows else {
                failRow("a row without a number after row \(previous) lies past the last row, \(CellReference.maxRows)")
                return
            }
            number = previous + 1
        }
        guard number > previous else {
            failRow("row r=\"\(number)\" comes after row \(previous): expected rows in ascending order")
            return
        }
        scratch.pointee.row.reset(number: number)
        inRow = true
        column = -1
    }

    private func endRow() {
        guard inRow else { return }
        inRow = false
        rowCount += 1
        peakRowCapacity = max(peakRowCapacity, scratch.pointee.row.capacity)
        do {
            if try !onRow(&scratch.pointee.row) { finish() }
        } catch {
            // The read rethrows `rowError` itself; the parser's message is never shown, so no
            // description of the error is built here.
            rowError = error
            stop("the rows' consumer stopped the read")
        }
    }

    private func startCell(_ attributes: XMLAttributes) {
        if !inRow {
            // A cell outside any <row>: start an implicit row after the previous one.
            startRow(.none)
            guard rowError == nil else { return }
        }
        var referencedColumn: Int?
        var invalidReference: UnsafeBufferPointer<UInt8>?
        cellType = .number
        styleIndex = 0
        attributes.forEachSingleLetter { letter, value in
            switch letter {
            case UInt8(ascii: "r"):
                if let reference = CellReference.parse(value) {
                    referencedColumn = reference.column
                } else {
                    invalidReference = value
                }
            case UInt8(ascii: "t"): cellType = Self.cellType(value)
            case UInt8(ascii: "s"): styleIndex = ASCIIDigits.value(of: value, maxCount: 18) ?? 0
            default: break
            }
        }
        if let invalidReference {
            fail(column: nil, "cell r=\"\(Self.excerpt(invalidReference))\": \(CellReference.expectedCell)")
            return
        }
        column = referencedColumn ?? column + 1
        if column >= ColumnName.maxColumns {
            fail(column: column, "cell lies past the last column XFD")
        }
        scratch.pointee.text.removeAll()
        hasValue = false
        hasInlineText = false
        collecting = false
    }

    private func endCell() {
        peakTextCapacity = max(peakTextCapacity, scratch.pointee.text.capacity)
        guard hasValue || hasInlineText else { return }
        finishCell(value: scratch.pointee.text.bytes)
    }

    /// Sets the current cell to what `value` (its `<v>` or inline text) makes of it.
    private func finishCell(value: UnsafeBufferPointer<UInt8>) {
        guard column >= 0, column < ColumnName.maxColumns else { return }
        if let cell = makeCell(value) { scratch.pointee.row.set(cell, at: column) }
    }

    private func makeCell(_ value: UnsafeBufferPointer<UInt8>) -> Cell? {
        switch cellType {
        case .number:
            guard let number = DecimalParser.parse(value) else {
                if value.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) { return nil }
                return .string(String(decoding: value, as: UTF8.self))
            }
            guard number.isFinite else {
                fail(
                    column: column,
                    "\"\(Self.excerpt(value))\" is out of a number's range (expected at most ±1.7976931348623157e308)")
                return nil
            }
            if cellFormats.kind(ofStyle: styleIndex) == .dateTime {
                if let date = dateSystem.dateTime(fromSerial: number) { return .date(date) }
                if number > 0 { warnPastLastDay(value) }
            }
            return .number(number)
        case .sharedString:
            guard
                let index = ASCIIDigits.value(of: value, maxCount: 18)
                    ?? DecimalParser.parse(value).flatMap({ Int(exactly: $0) })
            else {
                if value.isEmpty { return nil }
                fail(column: column, "\"\(String(decoding: value, as: UTF8.self))\" is not a shared-string index")
                return nil
            }
            guard index >= 0, index < sharedStrings.count else {
                fail(column: column, "shared string index \(index) is out of range (table has \(sharedStrings.count))")
                return nil
            }
            return .string(sharedStrings[index])
        case .formulaString, .inlineString:
            return .string(OOXMLEscapes.decode(value))
        case .boolean:
            let word = String(decoding: value, as: UTF8.self).trimmingCharacters(in: " ")
            return .bool(word == "1" || word.lowercased() == "true")
        case .error:
            return .error(String(decoding: value, as: UTF8.self))
        case .isoDate:
            let textValue = String(decoding: value, as: UTF8.self)
            if let date = CellDateTime(iso8601: textValue) { return .date(date) }
            return textValue.isEmpty ? nil : .string(textValue)
        }
    }

    /// Notes a date-formatted number past the last day a spreadsheet shows, kept as a number.
    private func warnPastLastDay(_ value: UnsafeBufferPointer<UInt8>) {
        guard warnings.count < Self.maxWarnings else { return }
        let warning = XLSXError(
            file: file, sheet: sheet, row: scratch.pointee.row.number, column: column,
            message: "serial \(Self.excerpt(value)) with a date format lies past 9999-12-31 (Excel shows #####): "
                + "read as a number")
        warnings.append(warning.description)
    }

    private func fail(column: Int?, _ message: String) {
        report(XLSXError(file: file, sheet: sheet, row: scratch.pointee.row.number, column: column, message: message))
    }

    /// Fails on a `<row>` whose number the reader cannot take; the message places it.
    private func failRow(_ message: String) {
        inRow = false
        report(XLSXError(file: file, sheet: sheet, message: message))
    }

    private func report(_ error: XLSXError) {
        guard rowError == nil else { return }
        collecting = false
        rowError = error
        stop(error.description)
    }

    /// Attribute or value text for a message, cut after 40 bytes (a fuzzed value may be long).
    private static func excerpt(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        bytes.count <= 40
            ? String(decoding: bytes, as: UTF8.self)
            : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<40]), as: UTF8.self) + "…"
    }

    private static func cellType(_ bytes: UnsafeBufferPointer<UInt8>) -> CellType {
        switch bytes.count {
        case 1:
            switch bytes[0] {
            case UInt8(ascii: "s"): return .sharedString
            case UInt8(ascii: "b"): return .boolean
            case UInt8(ascii: "e"): return .error
            case UInt8(ascii: "d"): return .isoDate
            default: return .number
            }
        case 3 where bytes[0] == UInt8(ascii: "s"): return .formulaString
        case 9 where bytes[0] == UInt8(ascii: "i"): return .inlineString
        default: return .number
        }
    }

}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var slice = Substring(self)
        while slice.first == set { slice.removeFirst() }
        while slice.last == set { slice.removeLast() }
        return String(slice)
    }
}
