/// A problem with a workbook's content, placed as precisely as the reader knows it:
/// `sales_0715.xlsx!Sheet1 row 12, column D: shared string index 500 is out of range (table has 20)`.
public struct XLSXError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var sheet: String?
    public var part: String?
    /// 1-based sheet row.
    public var row: Int?
    /// 0-based column index.
    public var column: Int?
    public var message: String

    public init(
        file: String, sheet: String? = nil, part: String? = nil, row: Int? = nil, column: Int? = nil, message: String
    ) {
        self.file = file
        self.sheet = sheet
        self.part = part
        self.row = row
        self.column = column
        self.message = message
    }

    public var description: String {
        var place = file
        if let sheet { place += "!\(sheet)" } else if let part { place += ": \(part)" }
        if let row { place += " row \(row)" }
        if let column { place += (row == nil ? " " : ", ") + "column \(ColumnName.letters(for: column))" }
        return "\(place): \(message)"
    }
}

/// Spreadsheet column letters (`A`, `Z`, `AA`, … `XFD`) and their 0-based indexes.
public enum ColumnName {
    /// The largest column count a worksheet may have (ECMA-376: 16,384, `XFD`).
    public static let maxColumns = 16_384

    /// Letters for a 0-based column index: 0 → `A`, 27 → `AB`.
    public static func letters(for index: Int) -> String {
        var value = index + 1
        var letters: [Character] = []
        while value > 0 {
            let remainder = (value - 1) % 26
            letters.append(Character(UnicodeScalar(UInt8(65 + remainder))))
            value = (value - 1) / 26
        }
        return String(letters.reversed())
    }
}
