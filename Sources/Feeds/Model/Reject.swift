/// An input row that could not become data, with everything needed to find and fix it.
public struct Reject: Equatable, Sendable, Codable {
    public var file: String
    public var sheet: String
    /// 1-based sheet row or CSV record.
    public var row: Int
    /// Column letters (`D`), or `nil` when the problem is the whole row.
    public var column: String?
    /// The header of that column, when known.
    public var header: String?
    /// The value seen, as text.
    public var value: String
    public var reason: String

    public init(file: String, sheet: String, row: Int, column: String?, header: String?, value: String, reason: String)
    {
        self.file = file
        self.sheet = sheet
        self.row = row
        self.column = column
        self.header = header
        self.value = value
        self.reason = reason
    }

    /// `sales_0715.xlsx!Sheet1 row 12, column D (Net Sales): "12,3x4" is not a number`.
    public var description: String {
        var text = "\(file)!\(sheet) row \(row)"
        if let column { text += ", column \(column)" + (header.map { " (\($0))" } ?? "") }
        return text + ": \"\(value)\" \(reason)"
    }
}

/// A problem that stops a whole feed file.
public struct FeedError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var message: String

    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    public var description: String { "\(file): \(message)" }
}
