import SheetStream

/// A minimal streaming XLSX writer: rows go straight into a deflated worksheet part, so a
/// million-row sheet needs no more memory than its distinct strings.
///
/// Values carry their presentation (date, percent, money formats), which the fixed `styles.xml`
/// provides. Strings go to the shared-string table or inline (`t="inlineStr"`), as chosen.
public final class XLSXWriter {
    /// Where string cells are stored.
    public enum StringStorage: Sendable { case shared, inline }

    /// One cell to write.
    public enum Value: Sendable {
        case empty
        case number(Double)
        case string(String)
        case bool(Bool)
        /// A date (`m/d/yyyy`, builtin format 14), or with a time of day (`m/d/yy h:mm`, builtin 22).
        case date(CellDateTime)
        /// A fraction shown as a percent (`0.00%`, builtin format 10).
        case percent(Double)
        /// A number shown as money (`#,##0.00`, builtin format 4).
        case money(Double)
    }

    private let zip: ZipWriter
    private let storage: StringStorage
    private var sheetNames: [String] = []
    private var sharedIndex: [String: Int] = [:]
    private var sharedStrings: [String] = []
    private var rowNumber = 0
    private var columnNames: [String] = []
    private var line = ""

    /// Creates (or replaces) the file at `path`.
    public init(path: String, strings: StringStorage = .shared, compressionLevel: Int32 = 6) throws {
        zip = try ZipWriter(path: path, compressionLevel: compressionLevel)
        storage = strings
        line.reserveCapacity(1024)
    }

    /// Starts a new sheet (ending the previous one); rows that follow go to it.
    public func addSheet(named name: String) throws {
        try endSheet()
        sheetNames.append(name)
        rowNumber = 0
        try zip.beginEntry("xl/worksheets/sheet\(sheetNames.count).xml")
        try zip.write(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
                + "<worksheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\"><sheetData>")
    }

    /// Appends a row to the current sheet; trailing `.empty` values write nothing.
    public func writeRow(_ values: [Value]) throws {
        guard !sheetNames.isEmpty else {
            try addSheet(named: "Sheet1")
            return try writeRow(values)
        }
        rowNumber += 1
        let rowText = String(rowNumber)
        line.removeAll(keepingCapacity: true)
        line += "<row r=\"" + rowText + "\">"
        for (column, value) in values.enumerated() {
            if case .empty = value { continue }
            line += "<c r=\"" + columnName(column) + rowText + "\""
            switch value {
            case .empty: break
            case .number(let number): line += "><v>" + CellText.number(number) + "</v></c>"
            case .money(let number): line += " s=\"4\"><v>" + CellText.number(number) + "</v></c>"
            case .percent(let number): line += " s=\"2\"><v>" + CellText.number(number) + "</v></c>"
            case .bool(let flag): line += " t=\"b\"><v>" + (flag ? "1" : "0") + "</v></c>"
            case .date(let date):
                let style = date.secondsOfDay == 0 ? "1" : "3"
                line +=
                    " s=\"" + style + "\"><v>" + CellText.number(ExcelDateSystem.date1900.serial(of: date)) + "</v></c>"
            case .string(let text):
                switch storage {
                case .shared: line += " t=\"s\"><v>" + String(sharedStringIndex(text)) + "</v></c>"
                case .inline: line += " t=\"inlineStr\"><is>" + Self.textElement(text) + "</is></c>"
                }
            }
        }
        line += "</row>"
        try zip.write(line)
    }

    /// Writes the remaining parts and closes the file.
    public func close() throws {
        if sheetNames.isEmpty { try addSheet(named: "Sheet1") }
        try endSheet()
        try part(
            "[Content_Types].xml",
            PackageParts.contentTypes(sheetCount: sheetNames.count, sharedStrings: storage == .shared))
        try part("_rels/.rels", PackageParts.packageRelationships)
        try part("xl/workbook.xml", PackageParts.workbook(sheetNames: sheetNames.map(Self.escape)))
        try part(
            "xl/_rels/workbook.xml.rels",
            PackageParts.workbookRelationships(sheetCount: sheetNames.count, sharedStrings: storage == .shared))
        try part("xl/styles.xml", PackageParts.styles)
        if storage == .shared {
            try zip.beginEntry("xl/sharedStrings.xml")
            try zip.write(
                "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" uniqueCount=\"\(sharedStrings.count)\">"
            )
            for text in sharedStrings { try zip.write("<si>" + Self.textElement(text) + "</si>") }
            try zip.write("</sst>")
            try zip.endEntry()
        }
        try zip.finish()
    }

    private func endSheet() throws {
        guard !sheetNames.isEmpty else { return }
        try zip.write("</sheetData></worksheet>")
        try zip.endEntry()
    }

    private func part(_ name: String, _ text: String) throws {
        try zip.beginEntry(name)
        try zip.write(text)
        try zip.endEntry()
    }

    private func sharedStringIndex(_ text: String) -> Int {
        if let index = sharedIndex[text] { return index }
        sharedStrings.append(text)
        sharedIndex[text] = sharedStrings.count - 1
        return sharedStrings.count - 1
    }

    private func columnName(_ index: Int) -> String {
        while columnNames.count <= index { columnNames.append(ColumnName.letters(for: columnNames.count)) }
        return columnNames[index]
    }

    /// `<t>` with `xml:space="preserve"` when the text has edge whitespace.
    static func textElement(_ text: String) -> String {
        let preserve = text.first?.isWhitespace == true || text.last?.isWhitespace == true
        return (preserve ? "<t xml:space=\"preserve\">" : "<t>") + escape(text) + "</t>"
    }

    /// XML-escapes text; control characters XML cannot carry become `_xHHHH_` escapes, and a
    /// literal `_xHHHH_` is protected as `_x005F_xHHHH_`.
    static func escape(_ text: String) -> String {
        guard
            text.utf8.contains(where: {
                $0 < 0x20 || $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x5F
            })
        else { return text }
        var result = ""
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n": result.unicodeScalars.append(scalar)
            case "_" where Self.startsEscape(scalars, at: index): result += "_x005F_"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "_x" + String(repeating: "0", count: 4 - hex.count) + hex + "_"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func startsEscape(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        guard index + 6 < scalars.count, scalars[index + 1] == "x" || scalars[index + 1] == "X",
            scalars[index + 6] == "_"
        else { return false }
        return scalars[(index + 2)...(index + 5)].allSatisfy { $0.properties.isASCIIHexDigit }
    }
}

/// The fixed package parts an `XLSXWriter` file needs besides its sheets.
enum PackageParts {
    static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
    static let relationshipType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"

    static func contentTypes(sheetCount: Int, sharedStrings: Bool) -> String {
        var text =
            header + "<Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
            + "<Override PartName=\"/xl/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
        for index in 1...max(sheetCount, 1) {
            text +=
                "<Override PartName=\"/xl/worksheets/sheet\(index).xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml\"/>"
        }
        if sharedStrings {
            text +=
                "<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/>"
        }
        return text + "</Types>"
    }

    static let packageRelationships =
        header
        + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        + "<Relationship Id=\"rId1\" Type=\"\(relationshipType)officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"

    static func workbook(sheetNames: [String]) -> String {
        var text =
            header + "<workbook xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" "
            + "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\"><sheets>"
        for (index, name) in sheetNames.enumerated() {
            text += "<sheet name=\"\(name)\" sheetId=\"\(index + 1)\" r:id=\"rId\(index + 1)\"/>"
        }
        return text + "</sheets></workbook>"
    }

    static func workbookRelationships(sheetCount: Int, sharedStrings: Bool) -> String {
        var text = header + "<Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        for index in 1...max(sheetCount, 1) {
            text +=
                "<Relationship Id=\"rId\(index)\" Type=\"\(relationshipType)worksheet\" Target=\"worksheets/sheet\(index).xml\"/>"
        }
        text += "<Relationship Id=\"rIdStyles\" Type=\"\(relationshipType)styles\" Target=\"styles.xml\"/>"
        if sharedStrings {
            text +=
                "<Relationship Id=\"rIdStrings\" Type=\"\(relationshipType)sharedStrings\" Target=\"sharedStrings.xml\"/>"
        }
        return text + "</Relationships>"
    }

    /// Cell formats: 0 general, 1 date (14), 2 percent (10), 3 date-time (22), 4 money (4).
    static let styles =
        header + "<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">"
        + "<fonts count=\"1\"><font><sz val=\"11\"/><name val=\"Calibri\"/></font></fonts>"
        + "<fills count=\"1\"><fill><patternFill patternType=\"none\"/></fill></fills>"
        + "<borders count=\"1\"><border/></borders>"
        + "<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>"
        + "<cellXfs count=\"5\"><xf numFmtId=\"0\" xfId=\"0\"/>"
        + "<xf numFmtId=\"14\" xfId=\"0\" applyNumberFormat=\"1\"/><xf numFmtId=\"10\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "<xf numFmtId=\"22\" xfId=\"0\" applyNumberFormat=\"1\"/><xf numFmtId=\"4\" xfId=\"0\" applyNumberFormat=\"1\"/>"
        + "</cellXfs></styleSheet>"
}
